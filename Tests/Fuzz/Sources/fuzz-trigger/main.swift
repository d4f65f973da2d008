#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outboxPath, "CAPTCHA_CATALOG": catalogPath,
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
/// crashes are not, and an answer must be JSON that parses back to the event it was written from.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrigger(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let event = Array(UnsafeBufferPointer(start: data, count: size))
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
