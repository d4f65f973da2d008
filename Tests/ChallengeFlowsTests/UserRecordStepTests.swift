import ChallengeCrypto
import ChallengeFlows
import Testing

/// A step that keeps a visit count per user: it seals a random ticket, shows it, and on a right answer asks for the
/// count to rise. The ticket comes back inside the answer (`ticket=…;`), as a passkey's challenge comes back inside
/// its assertion, so the step checks it with `sealMatches`.
struct VisitCounterStep: ChallengeStep {
    var keeps = true

    var name: String { "visit-counter" }
    var kind: ChallengeKind { ChallengeKind(rawValue: "VISIT_COUNTER")! }
    var provesIdentity: Bool { true }
    var keepsUserRecord: Bool { keeps }

    func create(_ context: StepContext) throws -> StepChallenge {
        let ticket = Hex.encode(try context.random.bytes(count: 8))
        return StepChallenge(
            publicParameters: ["ticket": ticket, "visits": context.userRecord?["visits"] ?? "none"], sealing: .answer(ticket))
    }

    func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        guard answer.hasPrefix("ticket="), answer.hasSuffix(";"),
              context.sealMatches(String(answer.dropFirst("ticket=".count).dropLast()))
        else { return .wrong }
        let visits = Int(context.userRecord?["visits"] ?? "0") ?? 0
        return .correctUpdating(record: ["visits": String(visits + 1)])
    }
}

@Suite("A step's record per user, through the engine")
struct UserRecordStepTests {
    func engine(_ step: VisitCounterStep = VisitCounterStep()) throws -> ChallengeFlowEngine {
        try ChallengeFlowEngine(
            flow: SignInFlow(parsing: "visit-counter", registry: StepRegistry([step])), policy: ChallengePolicy(),
            secret: Fixture.secret, random: SeededRandom(seed: 7))
    }

    @Test("Create sees the record; a right answer carried inside the answer asks for the record it must write")
    func recordInAndOut() throws {
        let engine = try engine()
        let request = try Requests.create([])
        #expect(engine.stepDue(for: request)?.name == "visit-counter")
        #expect(engine.stepDue(for: try Requests.create([], challengeName: .passwordVerifier)) == nil)
        let issued = try engine.create(request, user: Fixture.jane, now: Fixture.now, userRecord: ["visits": "4"])
        #expect(issued.publicParameters["visits"] == "4")
        let ticket = try #require(issued.publicParameters["ticket"])
        let right = try Requests.verify(issued.seal.privateParameters, answer: "ticket=\(ticket);")
        let verdict = engine.verdict(on: right, user: Fixture.jane, now: Fixture.now + 5, userRecord: ["visits": "4"])
        #expect(verdict == Verdict(.correct, updatedRecord: ["visits": "5"]))
        // The ticket of another challenge, the ticket alone, after expiry, an unknown user: no record to write.
        let other = try engine.create(request, user: Fixture.jane, now: Fixture.now)
        let wrong = try Requests.verify(other.seal.privateParameters, answer: "ticket=\(ticket);")
        #expect(engine.verdict(on: wrong, user: Fixture.jane, now: Fixture.now) == Verdict(.wrong))
        let bare = try Requests.verify(issued.seal.privateParameters, answer: ticket)
        #expect(engine.verdict(on: bare, user: Fixture.jane, now: Fixture.now) == Verdict(.wrong))
        #expect(engine.verdict(on: right, user: Fixture.jane, now: Fixture.now + 180) == Verdict(.expired))
        let unknown = try Requests.verify(issued.seal.privateParameters, answer: "ticket=\(ticket);", userNotFound: true)
        #expect(engine.verdict(on: unknown, user: Fixture.jane, now: Fixture.now) == Verdict(.unknownUser))
        // Another user's seal does not match.
        let john = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "john")
        #expect(engine.verdict(on: right, user: john, now: Fixture.now) == Verdict(.wrong))
    }

    @Test("a step that keeps no record cannot ask for one to be written")
    func recordWithoutKeeping() throws {
        let engine = try engine(VisitCounterStep(keeps: false))
        let issued = try engine.create(try Requests.create([]), user: Fixture.jane, now: Fixture.now)
        let ticket = try #require(issued.publicParameters["ticket"])
        let verdict = engine.verdict(
            on: try Requests.verify(issued.seal.privateParameters, answer: "ticket=\(ticket);"), user: Fixture.jane,
            now: Fixture.now)
        guard case .refused(let reason) = verdict.outcome else {
            Issue.record("expected a refusal, got \(verdict)")
            return
        }
        #expect(reason.contains("keepsUserRecord"))
        #expect(verdict.updatedRecord == nil)
    }

    @Test("decoy bytes are stable per user name in any case, differ by purpose and name, and come in any length")
    func decoyBytes() throws {
        func context(_ name: String) throws -> StepContext {
            StepContext(
                user: UserIdentity(userPoolId: "pool", userName: name), userAttributes: [:], now: Fixture.now,
                random: SeededRandom(seed: 1), policy: try ChallengePolicy())
        }
        let jane = try context("jane")
        #expect(jane.decoyBytes(for: "a", count: 70) == (try context("JANE")).decoyBytes(for: "a", count: 70))
        #expect(jane.decoyBytes(for: "a", count: 70).count == 70)
        #expect(jane.decoyBytes(for: "a", count: 20) == Array(jane.decoyBytes(for: "a", count: 70).prefix(20)))
        #expect(jane.decoyBytes(for: "a", count: 32) != jane.decoyBytes(for: "b", count: 32))
        #expect(jane.decoyBytes(for: "a", count: 32) != (try context("john")).decoyBytes(for: "a", count: 32))
        #expect(jane.sealMatches("anything") == false, "a context made by hand has no seal to check")
    }
}
