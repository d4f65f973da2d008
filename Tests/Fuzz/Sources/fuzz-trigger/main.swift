#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import ChallengeFlows
import CognitoTriggers
import LosslessJSON

/// A private scratch directory for the outbox and the CAPTCHA catalog, removed when libFuzzer exits normally.
private let scratch: String = {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/fuzz-trigger-XXXXXX".utf8CString)
    guard let directory = mkdtemp(&template) else { fatalError("fuzz-trigger: cannot make a scratch directory") }
    return String(cString: directory)
}()
private let outboxPath = scratch + "/outbox.jsonl"
private let catalogPath = scratch + "/captcha-catalog.json"

/// One handler per configuration worth exploring: every named flow, and a long custom one that does not insist on
/// verified addresses. The secret and the clock are the ones Events/ was written with (see Events/README.md), so
/// the seed events' sealed sessions verify and the fuzzer starts from the deep paths.
private nonisolated(unsafe) let handlers: [CognitoTriggerHandler] = {
    let catalog = #"[{"imageURL": "https://captcha.example.com/5d0e7c3a91b24f68.png", "answer": "w7xq4"}, {"imageURL": "https://captcha.example.com/a83f26c1e0d94b57.png", "answer": "k3m9p"}]"#
    guard let file = fopen(catalogPath, "w"), fputs(catalog, file) >= 0, fclose(file) == 0 else {
        fatalError("fuzz-trigger: cannot write \(catalogPath)")
    }
    atexit {
        unlink(outboxPath)
        unlink(catalogPath)
        rmdir(scratch)
    }
    let common = [
        "CODE_HASH_SECRET": "local-development-secret-do-not-deploy-0001",
        "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outboxPath, "CAPTCHA_CATALOG": catalogPath, "ALLOW_CAPTCHA_CATALOG": "true",
        "ALLOW_CAPTCHA_ONLY_SIGN_IN": "true", "DECOY_DELAY_MS": "0",
    ]
    let variants: [[String: String]] = [
        ["CHALLENGE_FLOW": "email-code"],
        ["CHALLENGE_FLOW": "srp-email-code"],
        ["CHALLENGE_FLOW": "captcha"],
        ["CHALLENGE_FLOW": "captcha-email-code"],
        ["CHALLENGE_FLOW": "srp+captcha+email-code+email-code", "REQUIRE_VERIFIED_EMAIL": "false", "MAX_ATTEMPTS": "1"],
    ]
    return variants.map { variant in
        do {
            let configuration = try TriggerConfiguration(environment: common.merging(variant) { $1 })
            return try CognitoTriggerHandler(configuration: configuration, clock: { 1_763_800_000 })
        } catch {
            fatalError("fuzz-trigger: \(variant): \(error)")
        }
    }
}()

/// One libFuzzer input, an event as Lambda would deliver it, handled by every configuration: errors are expected,
/// crashes are not, and an answer must be JSON that parses back to the event it was written from. An event read
/// straight from the bytes must be the one the tree decoder reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrigger(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let event = Array(UnsafeBufferPointer(start: data, count: size))
    if let direct = AuthChallengeEvent(readingDirectly: event) {
        guard let tree = try? AuthChallengeEvent(document: ParsedDocument(parsingEvent: event)), sameEvent(direct, tree)
        else { fatalError("read straight from the bytes, the event is not the tree's:\n\(String(decoding: event, as: UTF8.self))") }
    }
    for handler in handlers {
        guard let result = try? handler.handle(event) else { continue }
        let response = result.responseBytes
        guard let reparsed = try? JSONValue(parsing: response), reparsed == result.event.json else {
            fatalError("the answer is not the JSON of its event:\n\(String(decoding: response, as: UTF8.self))")
        }
    }
    // Codes only pile up in the outbox: keep it empty so that long runs do not fill the disk.
    truncate(outboxPath, 0)
    return 0
}

/// True when both events hold the same header, request and response, and write the same bytes back.
private func sameEvent(_ left: AuthChallengeEvent, _ right: AuthChallengeEvent) -> Bool {
    let sameParts = switch (left, right) {
    case (.define(let a), .define(let b)): a.request == b.request && a.response == b.response
    case (.create(let a), .create(let b)): a.request == b.request && a.response == b.response
    case (.verify(let a), .verify(let b)): a.request == b.request && a.response == b.response
    default: false
    }
    return sameParts && left.header == right.header && left.json == right.json && left.serialized() == right.serialized()
}
