import ChallengeCrypto

/// Secret keys a step may sign or MAC its own data with (e.g. the token in a sign-in link), derived from the
/// deployment's `CODE_HASH_SECRET` for the step's kind alone, and rotated with it.
///
/// Each key has the id of the secret it comes from, the same id the engine writes in its seals, so a step can
/// name the key in what it issues and find it again at Verify while a rotation is in progress.
public struct StepKeys: Sendable {
    /// The key new data is signed with, and its id.
    public let current: (id: String, key: [UInt8])
    /// The key from `CODE_HASH_SECRET_PREVIOUS` during a rotation: accepted, never used to sign.
    public let previous: (id: String, key: [UInt8])?

    /// Keys given directly, e.g. in a unit test of a step.
    public init(current: (id: String, key: [UInt8]), previous: (id: String, key: [UInt8])? = nil) {
        self.current = current
        self.previous = previous
    }

    /// Every key a step may verify with, by id.
    public var verifying: [String: [UInt8]] {
        var keys = [current.id: current.key]
        if let previous { keys[previous.id] = previous.key }
        return keys
    }
}

extension StepKeys: CustomStringConvertible, CustomReflectable {
    /// Ids only: keys never show.
    public var description: String { "StepKeys(current: \(current.id), previous: \(previous?.id ?? "none"))" }

    public var customMirror: Mirror {
        Mirror(self, children: ["current": current.id, "previous": previous?.id as Any], displayStyle: .struct)
    }
}

extension ChallengeKeys {
    /// The keys of the step whose seals are of `kind`.
    func stepKeys(for kind: ChallengeKind) -> StepKeys {
        StepKeys(current: current.stepKey(for: kind), previous: previous?.stepKey(for: kind))
    }
}
