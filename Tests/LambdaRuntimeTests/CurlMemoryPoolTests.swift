import Basics
import CCurlMemory
import CurlHTTP
import Foundation
import Invoker
import NIOHTTP1
import Testing

/// The memory `CurlSession` gives libcurl: per-thread free lists of 16 << k bytes, malloc beyond them.
@Suite("libcurl's memory pool")
struct CurlMemoryPoolTests {
    @Test("a freed block is handed out again for a size of its class, and another class gets a block of its own")
    func freedBlocksAreReusedWithinTheirClass() throws {
        let first = try #require(ccurlmemory_malloc(40))
        let cachedBefore = ccurlmemory_cached_bytes()
        ccurlmemory_free(first)
        #expect(ccurlmemory_cached_bytes() == cachedBefore + 16 + 64)
        let again = try #require(ccurlmemory_malloc(60))
        #expect(again == first)
        #expect(ccurlmemory_cached_bytes() == cachedBefore)
        let larger = try #require(ccurlmemory_malloc(100))
        #expect(larger != first)
        ccurlmemory_free(again)
        ccurlmemory_free(larger)
    }

    @Test("realloc keeps the contents: in place within the class, moved beyond it, into malloc's and back")
    func reallocKeepsTheContents() throws {
        let start = try #require(ccurlmemory_malloc(20))
        for index in 0..<20 { start.storeBytes(of: UInt8(index + 1), toByteOffset: index, as: UInt8.self) }
        func bytes(_ pointer: UnsafeMutableRawPointer, _ count: Int) -> [UInt8] {
            Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }
        let expected = (1...20).map(UInt8.init)

        let inPlace = try #require(ccurlmemory_realloc(start, 32))
        #expect(inPlace == start)
        #expect(bytes(inPlace, 20) == expected)
        let large = try #require(ccurlmemory_realloc(inPlace, 10_000))
        #expect(large != inPlace)
        #expect(bytes(large, 20) == expected)
        let small = try #require(ccurlmemory_realloc(large, 100))
        #expect(bytes(small, 20) == expected)
        ccurlmemory_free(small)
        let fresh = try #require(ccurlmemory_realloc(nil, 8))
        ccurlmemory_free(fresh)
    }

    @Test("calloc zeroes a reused block, refuses a size that overflows, and strdup copies")
    func callocAndStrdup() throws {
        let used = try #require(ccurlmemory_malloc(100))
        used.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 100)
        ccurlmemory_free(used)
        let zeroed = try #require(ccurlmemory_calloc(10, 10))
        #expect(zeroed == used)
        #expect(Array(UnsafeRawBufferPointer(start: zeroed, count: 100)).allSatisfy { $0 == 0 })
        ccurlmemory_free(zeroed)
        #expect(ccurlmemory_calloc(Int.max, 3) == nil)

        let copy = try #require(ccurlmemory_strdup("Expect:"))
        #expect(String(cString: copy) == "Expect:")
        ccurlmemory_free(copy)
    }

    @Test("a block freed on another thread joins that thread's lists, not those of the thread that took it")
    func blocksFreedOnAnotherThread() throws {
        let block = try #require(ccurlmemory_malloc(200))
        // Handed over as an address: a raw pointer is not Sendable.
        let address = Int(bitPattern: block)
        let cachedHere = ccurlmemory_cached_bytes()
        let cachedThere = PosixLock<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            let before = ccurlmemory_cached_bytes()
            ccurlmemory_free(UnsafeMutableRawPointer(bitPattern: address))
            cachedThere.withLock { $0 = [before, ccurlmemory_cached_bytes()] }
            done.signal()
        }.start()
        done.wait()
        #expect(cachedThere.withLock { $0 } == [0, 16 + 256])
        #expect(ccurlmemory_cached_bytes() == cachedHere)
    }

    @Test("libcurl's transfers take their memory from the pool, unless a sanitizer watches malloc")
    func libcurlUsesThePool() async throws {
        let server = LocalHTTPServer()
        let address = try server.start(host: "127.0.0.1", port: 0, answeringOnEventLoop: { _, _ in Answer() })
        // On a thread of its own, whose lists start empty: what they hold after the transfer is what libcurl freed.
        let seen = PosixLock<(status: Int, cachedBefore: Int, cachedAfter: Int)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let before = ccurlmemory_cached_bytes()
            let status = (try? CurlSession().perform(
                HTTPRequest(method: .get, url: "http://127.0.0.1:\(address.port)/", totalTimeout: .seconds(5))))?.status ?? 0
            seen.withLock { $0 = (status, before, ccurlmemory_cached_bytes()) }
            done.signal()
        }.start()
        done.wait()
        let result = try #require(seen.withLock { $0 })
        #expect(result.status == 200)
        #expect(result.cachedBefore == 0)
        if ccurlmemory_should_serve() != 0 {
            #expect(result.cachedAfter > 0)
        } else {
            #expect(result.cachedAfter == 0)
        }
        await server.shutdown()
    }

    private struct Answer: LocalHTTPAnswer {
        let status = 200
        let headers: [(String, String)] = []
        let body: [UInt8] = []
    }
}
