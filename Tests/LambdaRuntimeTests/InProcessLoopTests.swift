import LambdaRuntime
import Platform
import Testing

/// A Runtime API that hands out the invocations it was given, one per `next()`, and writes down every call the loop
/// makes: the loop's tests in process, without a socket (the tests over HTTP are in RuntimeLoopTests).
final class ScriptedRuntimeAPI: RuntimeAPI, Sendable {
    private struct State {
        var pending: [RuntimeInvocation]
        var calls: [String] = []
        var responseOutcomes: [String: Result<Delivery, RuntimeAPIFailure>] = [:]
    }

    private let state: PosixLock<State>

    init(_ invocations: [RuntimeInvocation]) {
        state = PosixLock(State(pending: invocations))
    }

    /// The calls in order: "next", "response ID BODY", "error ID TYPE: MESSAGE", "init-error TYPE: MESSAGE", and
    /// what the test's handler notes.
    var calls: [String] { state.withLock { $0.calls } }

    func note(_ call: String) {
        state.withLock { $0.calls.append(call) }
    }

    /// Answers `sendResponse` gives by request id (the default is `.accepted`).
    func answerResponses(_ outcomes: [String: Result<Delivery, RuntimeAPIFailure>]) {
        state.withLock { $0.responseOutcomes = outcomes }
    }

    func next() throws(RuntimeAPIFailure) -> RuntimeInvocation? {
        state.withLock { state in
            state.calls.append("next")
            return state.pending.isEmpty ? nil : state.pending.removeFirst()
        }
    }

    func sendResponse(_ body: [UInt8], for requestID: String) throws(RuntimeAPIFailure) -> Delivery {
        note("response \(requestID) \(String(decoding: body, as: UTF8.self))")
        return try state.withLock { $0.responseOutcomes[requestID] ?? .success(.accepted) }.get()
    }

    func sendError(_ report: ErrorReport, for requestID: String) throws(RuntimeAPIFailure) -> Delivery {
        note("error \(requestID) \(report.errorType): \(report.errorMessage)")
        return .accepted
    }

    func sendInitError(_ report: ErrorReport) throws(RuntimeAPIFailure) {
        note("init-error \(report.errorType): \(report.errorMessage)")
    }
}

struct Refusal: Error, CustomStringConvertible {
    var description: String { "the event asked to be refused" }
}

@Suite struct InProcessLoopTests {
    static let quiet = LambdaLogger(minimumLevel: .fatal)

    static func invocation(_ id: String, _ event: String) -> RuntimeInvocation {
        RuntimeInvocation(
            event: Array(event.utf8), requestID: id, deadlineMilliseconds: 4_102_444_800_000,
            invokedFunctionARN: "arn:aws:lambda:us-east-1:123456789012:function:f", traceID: "Root=1-\(id)")
    }

    @Test("each event is answered in order, and work left for after delivery runs before the next request")
    func answersInOrderWithFollowUpsBetween() {
        let api = ScriptedRuntimeAPI([Self.invocation("a", "1"), Self.invocation("b", "2")])
        let exit = LambdaRuntime.serve(api: api, logger: Self.quiet) { _ in
            ClosureHandler { event, context in
                context.afterDelivery { api.note("after \(context.requestID)") }
                return event + Array("!".utf8)
            }
        }
        #expect(exit == .terminated)
        #expect(api.calls == ["next", "response a 1!", "after a", "next", "response b 2!", "after b", "next"])
    }

    @Test("the context carries the invocation's headers; only the first is a cold start")
    func contextFromTheInvocation() {
        let api = ScriptedRuntimeAPI([Self.invocation("a", "{}"), Self.invocation("b", "{}")])
        _ = LambdaRuntime.serve(api: api, logger: Self.quiet) { _ in
            ClosureHandler { event, context in
                Array("\(context.requestID) \(context.traceID ?? "-") \(context.isColdStart) \(context.invokedFunctionARN)".utf8)
            }
        }
        #expect(api.calls.filter { $0.hasPrefix("response") } == [
            "response a a Root=1-a true arn:aws:lambda:us-east-1:123456789012:function:f",
            "response b b Root=1-b false arn:aws:lambda:us-east-1:123456789012:function:f",
        ])
    }

    @Test("a handler's error is reported for its invocation and the loop goes on")
    func handlerErrorsAreReported() {
        let api = ScriptedRuntimeAPI([Self.invocation("a", "refuse"), Self.invocation("b", "ok")])
        let exit = LambdaRuntime.serve(api: api, logger: Self.quiet) { _ in
            ClosureHandler { event, _ in
                if event == Array("refuse".utf8) { throw Refusal() }
                return event
            }
        }
        #expect(exit == .terminated)
        #expect(api.calls == [
            "next", "error a Function.Refusal: the event asked to be refused", "next", "response b ok", "next",
        ])
    }

    @Test("a handler that cannot be built is reported with init/error, and no event is asked for")
    func initializationFailure() {
        let api = ScriptedRuntimeAPI([Self.invocation("a", "1")])
        let exit = LambdaRuntime.serve(api: api, logger: Self.quiet) { _ -> ClosureHandler in throw Refusal() }
        #expect(exit == .initializationFailed("initialization failed: Function.Refusal: the event asked to be refused"))
        #expect(api.calls == ["init-error Function.Refusal: the event asked to be refused"])
    }

    @Test("a refused answer is logged and the loop goes on; a Runtime API that fails ends it, with the reason")
    func refusedAndFailedDeliveries() {
        let api = ScriptedRuntimeAPI([Self.invocation("a", "1"), Self.invocation("b", "2"), Self.invocation("c", "3")])
        api.answerResponses([
            "a": .success(.refused(reason: "late")),
            "b": .failure(RuntimeAPIFailure(description: "the Runtime API went away")),
        ])
        let exit = LambdaRuntime.serve(api: api, logger: Self.quiet) { _ in ClosureHandler { event, _ in event } }
        #expect(exit == .runtimeAPIFailed("the Runtime API went away"))
        #expect(api.calls == ["next", "response a 1", "next", "response b 2"])
    }
}
