#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import ChallengeCrypto
import Platform

/// How long code deliveries take, so that a Create that sends nothing (an unknown user, or one without a usable
/// address) can take as long as one that sends a code.
///
/// Until enough deliveries have been timed, delays are drawn from a log-normal distribution around the configured
/// typical time (`DECOY_DELAY_MS`); after that, from the recent measured durations, each scaled by a random factor
/// so that the decoy delays spread as real ones do rather than sitting on one value.
struct DeliveryTimeModel {
    /// Measured delivery durations, the most recent `capacity` of them.
    private var samples: [Duration] = []
    private var nextSlot = 0
    private let typical: Duration
    private let random: any RandomSource

    /// Deliveries kept, and how many must be timed before they replace the configured distribution.
    static let capacity = 64
    static let minimumSamples = 8
    /// Spread of the configured distribution (the log-normal's σ): most delays fall within 0.5–2 × typical.
    static let configuredSpread = 0.35
    /// Each measured sample is scaled by a factor from this range when drawn.
    static let jitter = 0.85...1.15

    init(typical: Duration, random: any RandomSource = SystemRandom()) {
        self.typical = typical
        self.random = random
    }

    mutating func record(_ duration: Duration) {
        if samples.count < Self.capacity {
            samples.append(duration)
        } else {
            samples[nextSlot] = duration
            nextSlot = (nextSlot + 1) % Self.capacity
        }
    }

    /// A delay for a Create that sends nothing.
    func drawDelay() -> Duration {
        guard let first = unitValue(), let second = unitValue() else { return typical }
        if samples.count >= Self.minimumSamples {
            let sample = samples[min(Int(first * Double(samples.count)), samples.count - 1)]
            return sample * (Self.jitter.lowerBound + second * (Self.jitter.upperBound - Self.jitter.lowerBound))
        }
        // Box–Muller: a standard normal value from two uniform ones.
        let normal = (-2 * log(1 - first)).squareRoot() * cos(2 * Double.pi * second)
        return typical * exp(Self.configuredSpread * normal)
    }

    /// A uniform value in [0, 1) from the random source; nil if it fails.
    private func unitValue() -> Double? {
        guard let bytes = try? random.bytes(count: 8) else { return nil }
        let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(bits >> 11) / Double(1 << 53)
    }
}
