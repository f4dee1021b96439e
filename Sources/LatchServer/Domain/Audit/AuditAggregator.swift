import Foundation
internal import LatchLocking

/// Failures that name no account (an unknown address, a decoy flow) are counted here instead of
/// writing one audit row each, and written as one summary row per tenant and reason when flushed
/// (once a minute by the maintenance loop, and at shutdown). An unauthenticated flood therefore
/// writes a bounded number of audit rows, while every failure stays counted.
///
/// The counts live in the process until flushed: a crash loses at most a minute of counts of
/// failures that had no account, which is acceptable for a summary.
public final class AuditAggregator: Sendable {
    private struct Key: Hashable {
        let tenantID: String
        let reason: String
    }

    private let counts = Locked<[Key: Int]>([:])

    /// Creates an empty aggregator.
    public init() {}

    /// Counts one failure of `reason` in `tenantID`.
    func count(tenantID: String, reason: String) {
        counts.withLock { $0[Key(tenantID: tenantID, reason: reason), default: 0] += 1 }
    }

    /// Writes one `sign_in_failed` row per tenant and reason counted since the last flush, with
    /// `detail` `reason=… count=… unknown_account`, and starts counting again.
    public func flush(into tx: any StoreWriting, at date: Date) throws {
        let pending = counts.withLock { current -> [Key: Int] in
            let taken = current
            current.removeAll()
            return taken
        }
        for (key, count) in pending.sorted(by: { ($0.key.tenantID, $0.key.reason) < ($1.key.tenantID, $1.key.reason) }) {
            try tx.insert(
                AuditEvent(
                    tenantID: key.tenantID, at: date, kind: .signInFailed,
                    detail: "reason=\(key.reason) count=\(count) unknown_account"))
        }
    }

    /// Failures counted and not yet flushed.
    public var pendingCount: Int { counts.withLock { $0.values.reduce(0, +) } }
}
