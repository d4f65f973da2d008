#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import CurlHTTP
@testable import LambdaRuntime
import LosslessJSON

private let loggers = [LambdaLogger(format: .text), LambdaLogger(format: .json)]
private nonisolated(unsafe) let traceVariable = TraceVariable()
/// Scalars a log reader may take for the end of a line (see `LineBreaks`).
private let lineBreaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]

/// One libFuzzer input, the header block of a Runtime API `next` answer as the server sends it: each line goes
/// through the parsing libcurl's header callback uses, the headers become an invocation as `next` makes one, and
/// the invocation's request id and headers go into log lines and `_X_AMZN_TRACE_ID` as the runtime loop uses them.
/// A header block without a request id or a numeric deadline is refused, which is fine; nothing may crash, a log
/// line must hold no line break but its last byte, and a JSON line must parse back to what was logged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRuntimeHeaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    var headerLines = HeaderLines()
    var lineStart = 0
    while lineStart < size {
        let lineEnd = input[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? size
        headerLines.receive(line: UnsafeBufferPointer(rebasing: input[lineStart..<lineEnd]))
        lineStart = lineEnd
    }
    let response = HTTPResponse(status: 200, headerLines: headerLines, body: Array("{}".utf8))
    for logger in loggers {
        guard let invocation = RuntimeInvocation(nextResponse: response) else { return 0 }
        let context = LambdaContext(
            invocation, logger: logger.forInvocation(invocation.requestID), initDuration: nil, followUps: DeliveryFollowUps())
        _ = context.remainingTime
        let message = "\(context.invokedFunctionARN) \(context.clientContext ?? "") \(context.cognitoIdentity ?? "")"
        let line = context.logger.render(.error, message, at: WallTime(seconds: 1_763_800_000))
        check(line, format: logger.format, requestID: context.requestID, message: message)
        traceVariable.set(context.traceID)
        let expected = context.traceID.map { String(decoding: $0.utf8.prefix { $0 != 0 }, as: UTF8.self) }
        guard getenv("_X_AMZN_TRACE_ID").map({ String(cString: $0) }) == expected else {
            fatalError("_X_AMZN_TRACE_ID is not the trace id \(String(reflecting: context.traceID))")
        }
    }
    return 0
}

private func check(_ line: [UInt8], format: LogFormat, requestID: String, message: String) {
    let text = String(decoding: line.dropLast(), as: UTF8.self)
    guard line.last == UInt8(ascii: "\n"), !text.unicodeScalars.contains(where: { lineBreaks.contains($0.value) }) else {
        fatalError("a log line holds a line break:\n\(String(reflecting: String(decoding: line, as: UTF8.self)))")
    }
    guard format == .json else { return }
    guard let object = (try? JSONValue(parsing: line))?.objectValue,
        object["requestId"] == .string(requestID), object["message"] == .string(message)
    else { fatalError("a JSON log line does not read back:\n\(text)") }
}
