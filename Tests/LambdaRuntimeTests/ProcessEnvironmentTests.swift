import LambdaRuntime
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The environment as `ProcessEnvironment.variables()` reads it from `environ`.
struct ProcessEnvironmentTests {
    @Test func aValueKeepsEverythingAfterTheFirstEqualsSignAndItsUTF8() throws {
        let name = "PROCESS_ENVIRONMENT_TEST_\(UInt32.random(in: 0...UInt32.max))"
        try #require(setenv(name, "a=b==c ünïcødé", 1) == 0)
        defer { unsetenv(name) }
        let variables = ProcessEnvironment.variables()
        #expect(variables[name] == "a=b==c ünïcødé")
        #expect(variables["PATH"] == getenv("PATH").map { String(cString: $0) })
    }

    @Test func anEmptyValueIsReadAsEmpty() throws {
        let name = "PROCESS_ENVIRONMENT_EMPTY_\(UInt32.random(in: 0...UInt32.max))"
        try #require(setenv(name, "", 1) == 0)
        defer { unsetenv(name) }
        #expect(ProcessEnvironment.variables()[name] == "")
    }
}
