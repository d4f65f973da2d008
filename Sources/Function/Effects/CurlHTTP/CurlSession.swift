import CCurl
import Glibc

/// One libcurl easy handle, reused for every request so that connections are kept alive.
///
/// Set up once with `NOSIGNAL` and `TCP_NODELAY`; POST bodies carry their size and an empty `Expect:` header, so the
/// connection survives error statuses. Not thread-safe: one owner at a time.
///
/// Transfers run on a multi handle of the session's own, which keeps the connections between them, rather than
/// through `curl_easy_perform`: that starts every transfer by waiting on libcurl's wake-up socket before anything
/// is sent, a `poll` system call that finds nothing, two of each invocation's six.
public final class CurlSession {
    private let handle: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private let target: RequestTarget
    private let transfer = Transfer()
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// The timeouts the handle holds (libcurl's defaults at first): a request with the same ones leaves them, as
    /// converting each to milliseconds is 128-bit arithmetic.
    private var timeouts: (connect: Duration?, total: Duration?) = (nil, nil)
    /// The header list of a POST without headers of its own, built once.
    private let emptyExpect: UnsafeMutablePointer<curl_slist>?

    /// libcurl's setup, once per process, before the first handle.
    private static let globalInitialization: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// - Parameter caFile: a PEM bundle of trusted certificate authorities for HTTPS, in place of the one libcurl
    ///   was built to look for (Amazon Linux keeps it at `/etc/pki/tls/certs/ca-bundle.crt`, Debian at
    ///   `/etc/ssl/certs/ca-certificates.crt`).
    /// - Parameter usesProxies: false for an endpoint that is never reached through a proxy (the Lambda Runtime API):
    ///   libcurl then does not read the proxy variables (`http_proxy`, `no_proxy`, …) at every request, and a proxy
    ///   set for the function's own calls never carries the runtime's.
    public init(caFile: String? = nil, usesProxies: Bool = true) throws(CurlError) {
        guard Self.globalInitialization == CURLE_OK, let handle = curl_easy_init() else {
            errorBuffer.deallocate()
            throw CurlError(kind: .other, code: Int32(CURLE_FAILED_INIT.rawValue), message: "libcurl could not start")
        }
        self.handle = handle
        target = RequestTarget()
        guard target.location != nil, let multi = curl_multi_init() else {
            curl_easy_cleanup(handle)
            errorBuffer.deallocate()
            throw CurlError(kind: .other, code: Int32(CURLE_OUT_OF_MEMORY.rawValue), message: "libcurl could not start")
        }
        self.multi = multi
        emptyExpect = curl_slist_append(nil, "Expect:")
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(handle, CURLOPT_TCP_NODELAY, 1)
        // The callbacks borrow the session's transfer (it outlives the handle) rather than retaining and releasing it
        // at each of the dozen calls a request makes.
        ccurl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, { data, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.receiveBody(data!, size * count) }
        })
        ccurl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, { data, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.receiveHeader(data!, size * count) }
        })
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        ccurl_setopt_progress(handle, CURLOPT_XFERINFOFUNCTION, { context, _, _, _, _ in
            Unmanaged<Transfer>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.shouldAbort() } ? 1 : 0
        })
        ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
        ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        if let caFile {
            caFile.withCString { path in _ = ccurl_setopt_pointer(handle, CURLOPT_CAINFO, path) }
        }
        if !usesProxies {
            // No proxy for any host; libcurl copies the string.
            "*".withCString { hosts in _ = ccurl_setopt_pointer(handle, CURLOPT_NOPROXY, hosts) }
        }
    }

    deinit {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(handle)
        curl_slist_free_all(emptyExpect)
        errorBuffer.deallocate()
    }

    /// Performs the request and returns the server's answer, whatever its status.
    public func perform(_ request: HTTPRequest) throws(CurlError) -> HTTPResponse {
        transfer.reset(abortCheck: request.abortCheck)
        errorBuffer[0] = 0
        if request.connectTimeout != timeouts.connect {
            ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeout.milliseconds)
            timeouts.connect = request.connectTimeout
        }
        if request.totalTimeout != timeouts.total {
            ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, request.totalTimeout?.milliseconds ?? 0)
            timeouts.total = request.totalTimeout
        }
        ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, request.abortCheck == nil ? 1 : 0)

        var ownHeaders: UnsafeMutablePointer<curl_slist>?
        for header in request.headers {
            ownHeaders = curl_slist_append(ownHeaders, "\(header.name): \(header.value)")
        }
        if request.method == .post, ownHeaders != nil {
            ownHeaders = curl_slist_append(ownHeaders, "Expect:")
        }
        defer { curl_slist_free_all(ownHeaders) }
        let headerList = request.method == .post && ownHeaders == nil ? emptyExpect : ownHeaders

        try target.point(at: request.url)
        ccurl_setopt_pointer(handle, CURLOPT_CURLU, UnsafeRawPointer(target.location))
        let code: CURLcode = {
            ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
            switch request.method {
            case .get:
                ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1)
                return performTransfer()
            case .post:
                return request.body.withUnsafeBytes { body in
                    ccurl_setopt_long(handle, CURLOPT_POST, 1)
                    ccurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                    // libcurl reads POSTFIELDS during perform only; an empty body still needs a valid pointer.
                    ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, body.baseAddress ?? UnsafeRawPointer(bitPattern: 1))
                    return performTransfer()
                }
            }
        }()
        ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, nil)
        guard code == CURLE_OK else { throw error(for: code) }

        var status = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headerLines: transfer.headerLines, body: transfer.body)
    }

    /// Runs the transfer the easy handle is set up for, as `curl_easy_perform` would, but starting with the work
    /// (connecting or reusing a connection, sending) rather than with a wait.
    private func performTransfer() -> CURLcode {
        guard curl_multi_add_handle(multi, handle) == CURLM_OK else { return CURLE_FAILED_INIT }
        defer { curl_multi_remove_handle(multi, handle) }
        var running: Int32 = 0
        var step = curl_multi_perform(multi, &running)
        while step == CURLM_OK, running != 0 {
            // At most a second between calls, as `curl_easy_perform` waits, so the progress callback (a request's
            // abort check) keeps running while the server is silent.
            step = curl_multi_wait(multi, nil, 0, 1000, nil)
            if step == CURLM_OK { step = curl_multi_perform(multi, &running) }
        }
        guard step == CURLM_OK else { return step == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_BAD_FUNCTION_ARGUMENT }
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_FAILED_INIT
    }

    private func error(for code: CURLcode) -> CurlError {
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let kind: CurlError.Kind =
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: .cannotConnect
            case CURLE_OPERATION_TIMEDOUT: .timedOut
            default: .other
            }
        return CurlError(
            kind: kind, code: Int32(code.rawValue), message: message,
            wasAborted: code == CURLE_ABORTED_BY_CALLBACK && transfer.abortRequested)
    }
}

/// The request's URL in libcurl's parsed form, kept between requests. A request to the origin of the one before sets
/// only its path and query; otherwise libcurl would parse the whole URL and print it back at every transfer (a third
/// of its work for a Runtime API request).
private final class RequestTarget {
    let location = curl_url()
    /// The bytes of `scheme://authority` of the URL the handle holds; empty before the first request and after a
    /// rejected one.
    private var origin: [UInt8] = []
    /// A NUL-terminated copy of what is handed to libcurl.
    private var part: [UInt8] = []

    deinit { curl_url_cleanup(location) }

    func point(at url: String) throws(CurlError) {
        var url = url
        let result = url.withUTF8 { bytes in
            guard let pathStart = Self.pathStart(in: bytes) else {
                origin = []
                return set(CURLUPART_URL, bytes[...])
            }
            guard pathStart == origin.count, memcmp(origin, bytes.baseAddress!, pathStart) == 0 else {
                origin = Array(bytes[..<pathStart])
                return set(CURLUPART_URL, bytes[...])
            }
            let questionMark = bytes.index(of: UInt8(ascii: "?"), from: pathStart)
            let path = set(CURLUPART_PATH, bytes[pathStart..<(questionMark ?? bytes.endIndex)])
            return path == CURLUE_OK ? set(CURLUPART_QUERY, questionMark.map { bytes[($0 + 1)...] }) : path
        }
        guard result == CURLUE_OK else {
            origin = []
            throw CurlError(
                kind: .other, code: Int32(CURLE_URL_MALFORMAT.rawValue),
                message: "the URL \(url) is not one libcurl can use: \(String(cString: curl_url_strerror(result)))")
        }
    }

    /// Sets one part; a whole URL is read as libcurl reads a `CURLOPT_URL` (a missing scheme guessed, any scheme
    /// taken here and judged when the transfer starts).
    private func set(_ which: CURLUPart, _ value: Slice<UnsafeBufferPointer<UInt8>>?) -> CURLUcode {
        guard let value else { return curl_url_set(location, which, nil, 0) }
        part.removeAll(keepingCapacity: true)
        part.append(contentsOf: UnsafeBufferPointer(rebasing: value))
        part.append(0)
        let flags = which == CURLUPART_URL ? UInt32(CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME) : 0
        return part.withUnsafeBytes { curl_url_set(location, which, $0.baseAddress!.assumingMemoryBound(to: CChar.self), flags) }
    }

    /// Where the path of an absolute URL without a fragment starts (the `/` after `scheme://authority`); nil for a
    /// URL of another shape, which libcurl then parses whole.
    private static func pathStart(in url: UnsafeBufferPointer<UInt8>) -> Int? {
        guard url.index(of: UInt8(ascii: "#")) == nil, let colon = url.index(of: UInt8(ascii: ":")),
            colon + 2 < url.count, url[colon + 1] == UInt8(ascii: "/"), url[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        let authority = colon + 3
        guard let slash = url[authority...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }),
            slash > authority, url[slash] == UInt8(ascii: "/")
        else { return nil }
        return slash
    }
}

/// Collects one response's headers and body from libcurl's callbacks.
private final class Transfer {
    /// What the transfer received so far, behind a pointer: libcurl's callbacks append to it a dozen times per
    /// request, and writing to a class's stored `var` would check for exclusive access at every append.
    private struct Received {
        var body: [UInt8] = []
        /// The header lines after the last status line.
        var headerLines = HeaderLines()
    }

    private let received = UnsafeMutablePointer<Received>.allocate(capacity: 1)
    private var abortCheck: (@Sendable () -> Bool)?
    private(set) var abortRequested = false

    init() {
        received.initialize(to: Received())
    }

    deinit {
        received.deinitialize(count: 1)
        received.deallocate()
    }

    var body: [UInt8] { received.pointee.body }
    var headerLines: HeaderLines { received.pointee.headerLines }

    func reset(abortCheck: (@Sendable () -> Bool)?) {
        received.pointee.body.removeAll(keepingCapacity: true)
        received.pointee.headerLines.removeAll()
        self.abortCheck = abortCheck
        abortRequested = false
    }

    func shouldAbort() -> Bool {
        if let abortCheck, abortCheck() { abortRequested = true }
        return abortRequested
    }

    func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            received.pointee.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
        return count
    }

    func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            UnsafeBufferPointer(start: bytes, count: count)
        }
        received.pointee.headerLines.receive(line: line)
        return count
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so that a short positive timeout never becomes "no timeout".
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let partial = attoseconds > 0 ? (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000 : 0
        return Int(seconds) * 1000 + Int(partial)
    }
}
