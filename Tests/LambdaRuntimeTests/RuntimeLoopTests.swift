import Foundation
import Invoker
import LambdaRuntime
import Basics
import Platform
import Testing

/// The loop, run in this process, against the Runtime API emulator on 127.0.0.1. Serialized: the loop sets
/// `_X_AMZN_TRACE_ID` in the process environment.
@Suite(.serialized)
struct RuntimeLoopTests {
    struct InvalidCode: LambdaReportableError, CustomStringConvertible {
        var errorType: String { "Function.InvalidCode" }
        var description: String { "the code has expired" }
    }

    struct PlainFailure: Error, CustomStringConvertible {
        var description: String { "plain failure \"quoted\"" }
    }

    @Test func answersInvocationsInOrderWithTheHandlersBytes() async throws {
        try await withEmulator { emulator, address in
            let loop = LoopThread(address: address) { event, _ in Array("echo:".utf8) + event }
            for number in 1...5 {
                let result = try #require(await invoke(emulator, event("{\"n\":\(number)}")))
                #expect(result.outcome == .response(event("echo:{\"n\":\(number)}")))
                #expect(result.runtimeDuration != nil)
            }
            await emulator.shutdown()
            guard case .runtimeAPIFailed = try #require(await loop.exit()) else {
                Issue.record("the loop should stop when the Runtime API goes away")
                return
            }
        }
    }

    @Test func queuesConcurrentCallers() async throws {
        try await withEmulator { emulator, address in
            _ = LoopThread(address: address) { event, _ in event }
            let answers = try await withThrowingTaskGroup(of: InvocationOutcome?.self) { group in
                for number in 0..<20 {
                    group.addTask { try await invoke(emulator, event("\(number)"))?.outcome }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(answers.compactMap { $0 }.map { "\($0)" }).count == 20)
            #expect(answers.allSatisfy { if case .response = $0 { true } else { false } })
        }
    }

    @Test func surfacesEveryInvocationHeaderInTheContext() async throws {
        try await withEmulator { emulator, address in
            let seen = PosixLock<(LambdaContext, String?)?>(nil)
            _ = LoopThread(address: address) { event, context in
                seen.withLock { $0 = (context, getenv("_X_AMZN_TRACE_ID").map { String(cString: $0) }) }
                return event
            }
            let trace = "Root=1-65f0c1a2-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=1"
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            let result = try #require(
                await invoke(
                    emulator, event("{}"), timeout: .seconds(7), traceID: trace, clientContext: "{\"client\":{}}",
                    cognitoIdentity: "{\"cognitoIdentityId\":\"id\",\"cognitoIdentityPoolId\":\"pool\"}"))
            let (context, environmentTrace) = try #require(seen.withLock { $0 })
            #expect(context.requestID == result.requestID)
            #expect(context.invokedFunctionARN == "arn:aws:lambda:us-east-1:123456789012:function:cognito-challenge")
            #expect(context.traceID == trace)
            #expect(environmentTrace == trace)
            #expect(context.clientContext == "{\"client\":{}}")
            #expect(context.cognitoIdentity == "{\"cognitoIdentityId\":\"id\",\"cognitoIdentityPoolId\":\"pool\"}")
            #expect(context.deadlineMilliseconds >= before + 7000)
            #expect(context.deadlineMilliseconds <= before + 7000 + 2000)
            #expect(context.logger.requestID == result.requestID)
            #expect(context.remainingTime > .seconds(4) && context.remainingTime <= .seconds(7))
        }
    }

    @Test func setsTheTraceEnvironmentForEachInvocation() async throws {
        try await withEmulator { emulator, address in
            _ = LoopThread(address: address) { _, _ in
                Array((getenv("_X_AMZN_TRACE_ID").map { String(cString: $0) } ?? "unset").utf8)
            }
            for trace in ["Root=1-00000001-aaaaaaaaaaaaaaaaaaaaaaaa", "Root=1-00000002-bbbbbbbbbbbbbbbbbbbbbbbb"] {
                let result = try #require(await invoke(emulator, event("{}"), traceID: trace))
                #expect(result.outcome == .response(event(trace)))
            }
        }
    }

    @Test func reportsAReportableErrorWithItsTypeAndGoesOn() async throws {
        try await withEmulator { emulator, address in
            _ = LoopThread(address: address) { event, _ in
                guard event != Array("\"ok\"".utf8) else { return event }
                throw InvalidCode()
            }
            let failed = try #require(await invoke(emulator, event("{}")))
            let expectedBody = "{\"errorMessage\":\"the code has expired\",\"errorType\":\"Function.InvalidCode\",\"stackTrace\":[]}"
            #expect(failed.outcome == .functionError(ReportedError(errorType: "Function.InvalidCode", body: event(expectedBody))))
            let next = try #require(await invoke(emulator, event("\"ok\"")))
            #expect(next.outcome == .response(event("\"ok\"")))
        }
    }

    @Test func namesOtherErrorsAfterTheirSwiftType() async throws {
        try await withEmulator { emulator, address in
            _ = LoopThread(address: address) { _, _ in throw PlainFailure() }
            let failed = try #require(await invoke(emulator, event("{}")))
            let body = "{\"errorMessage\":\"plain failure \\\"quoted\\\"\",\"errorType\":\"Function.PlainFailure\",\"stackTrace\":[]}"
            #expect(failed.outcome == .functionError(ReportedError(errorType: "Function.PlainFailure", body: event(body))))
        }
    }

    @Test func reportsAnInitializationErrorAndStops() async throws {
        try await withEmulator { emulator, address in
            let loop = LoopThread(address: address) { throw InvalidCode() }
            let ending = try #require(await loop.exit())
            #expect(ending == .initializationFailed("initialization failed: Function.InvalidCode: the code has expired"))
            #expect(ending.status == 1)
            let start = try #require(await within(.seconds(2)) { try await emulator.runtimeStart() })
            let body = "{\"errorMessage\":\"the code has expired\",\"errorType\":\"Function.InvalidCode\",\"stackTrace\":[]}"
            #expect(start == .initFailed(ReportedError(errorType: "Function.InvalidCode", body: event(body))))
        }
    }

    @Test func aResponseOverSixMebibytesFailsTheInvocationAndTheLoopGoesOn() async throws {
        try await withEmulator { emulator, address in
            _ = LoopThread(address: address) { event, _ in
                event == Array("\"big\"".utf8) ? [UInt8](repeating: 0x20, count: RuntimeAPIEmulator.responseLimit + 1) : event
            }
            let big = try #require(await invoke(emulator, event("\"big\"")))
            guard case .functionError(let error) = big.outcome else {
                Issue.record("expected a function error, got \(big.outcome)")
                return
            }
            #expect(error.errorType == "Function.ResponseSizeTooLarge")
            let exact = [UInt8](repeating: 0x20, count: RuntimeAPIEmulator.responseLimit)
            let atLimit = try #require(await invoke(emulator, exact))
            #expect(atLimit.outcome == .response(exact))
        }
    }

    @Test func aLateAnswerIsRefusedAndTheLoopServesTheNextInvocation() async throws {
        try await withEmulator { emulator, address in
            _ = LoopThread(address: address) { event, _ in
                if event == Array("\"slow\"".utf8) { Thread.sleep(forTimeInterval: 0.4) }
                return event
            }
            let slow = try #require(await invoke(emulator, event("\"slow\""), timeout: .milliseconds(100)))
            #expect(slow.outcome == .timedOut)
            let next = try #require(await invoke(emulator, event("\"next\"")))
            #expect(next.outcome == .response(event("\"next\"")))
        }
    }

    @Test(arguments: [RuntimeEndpoint.next, .response])
    func stopsWhenTheRuntimeAPIAnswers500(on endpoint: RuntimeEndpoint) async throws {
        try await withEmulator { emulator, address in
            emulator.inject(.status(500), on: endpoint)
            let loop = LoopThread(address: address) { event, _ in event }
            if endpoint == .response {
                let result = try #require(await invoke(emulator, event("{}"), timeout: .milliseconds(500)))
                #expect(result.outcome == .timedOut)
            }
            let ending = try #require(await loop.exit())
            guard case .runtimeAPIFailed(let reason) = ending else {
                Issue.record("expected a Runtime API failure, got \(ending)")
                return
            }
            #expect(reason.contains("answered 500"))
            #expect(ending.status == 1)
        }
    }

    @Test func stopsWhenTheRuntimeAPIAnswers403() async throws {
        try await withEmulator { emulator, address in
            emulator.inject(.status(403), on: .error)
            let loop = LoopThread(address: address) { _, _ in throw PlainFailure() }
            _ = try await invoke(emulator, event("{}"), timeout: .milliseconds(500))
            guard case .runtimeAPIFailed(let reason) = try #require(await loop.exit()) else {
                Issue.record("a 403 should end the loop")
                return
            }
            #expect(reason.contains("answered 403"))
        }
    }

    @Test func stopsWhenTheRuntimeAPIClosesTheConnection() async throws {
        try await withEmulator { emulator, address in
            emulator.inject(.closeConnection, on: .next)
            let loop = LoopThread(address: address) { event, _ in event }
            guard case .runtimeAPIFailed(let reason) = try #require(await loop.exit()) else {
                Issue.record("a closed connection should end the loop")
                return
            }
            #expect(reason.contains("GET next"))
        }
    }

    @Test func stopsWithAClearMessageWhenNothingListens() async throws {
        let loop = LoopThread(address: "127.0.0.1:1") { event, _ in event }
        guard case .runtimeAPIFailed(let reason) = try #require(await loop.exit()) else {
            Issue.record("an unreachable Runtime API should end the loop")
            return
        }
        #expect(reason.hasPrefix("GET next: the Runtime API at 127.0.0.1:1 cannot be reached: "))
    }
}
