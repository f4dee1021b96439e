import Foundation

/// A token bucket's state after a refused take (``LimitWriting/recordRateDenial(bucket:capacity:refillPerSecond:at:)``).
public struct RateDenial: Sendable, Equatable {
    /// Tokens in the bucket at the time of the refusal (below 1).
    public var available: Double
    /// Refusals since the bucket last admitted a request, this one included: 1 is a new trip.
    public var refusalsInTrip: Int

    /// A denial with these figures (store implementations report them).
    public init(available: Double, refusalsInTrip: Int) {
        self.available = available
        self.refusalsInTrip = refusalsInTrip
    }
}

/// Per-source rate-limit buckets. Each take is one conditional statement, so concurrent requests
/// (from any number of server instances on one database) never take more than the bucket holds.
public protocol LimitWriting {
    /// Takes one token from `bucket` (created full), after refilling it at `refillPerSecond` up to
    /// `capacity` for the time since its last change. `false`, with nothing changed, when less than
    /// one token is left.
    func takeRateToken(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws -> Bool
    /// Counts a refused take against `bucket` and reports its refilled level, or `nil` if the
    /// bucket does not exist.
    func recordRateDenial(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws
        -> RateDenial?
    /// The tokens `bucket` holds at `date` once refilled, without taking one; `nil` if the bucket
    /// does not exist (it counts as full).
    func availableRateTokens(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws -> Double?
    /// Deletes buckets that are full again by `date` (a missing bucket counts as full).
    func deleteRateBuckets(fullBefore date: Date) throws
}
