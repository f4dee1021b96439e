import Foundation
import LatchSQLite

/// Token buckets in `rate_buckets`: the level as REAL tokens and the time of the last change in
/// milliseconds. Each take is one `INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING`
/// (https://sqlite.org/lang_upsert.html), whose SET expressions all read the row as it was, so the
/// refill, the check and the take happen in one step. `full_at` (rounded up to the next
/// millisecond) is when an idle bucket is full again, and so can be deleted.
extension SQLiteStoreSession: LimitWriting {
    func takeRateToken(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws -> Bool {
        // ?1 bucket, ?2 capacity, ?3 now (ms), ?4 refill per millisecond.
        let level = "min(?2, tokens + max(0, ?3 - updated_at) * ?4)"
        return try queryOne(
            """
            INSERT INTO rate_buckets (bucket, tokens, updated_at, full_at, refusals)
            VALUES (?1, ?2 - 1, ?3, ?3 + CAST(1 / ?4 AS INTEGER) + 1, 0)
            ON CONFLICT (bucket) DO UPDATE SET
                tokens = \(level) - 1,
                updated_at = max(updated_at, ?3),
                full_at = max(updated_at, ?3) + CAST((?2 - (\(level) - 1)) / ?4 AS INTEGER) + 1,
                refusals = 0
            WHERE \(level) >= 1
            RETURNING tokens
            """,
            [.text(bucket), .real(capacity), SQLiteValue(date), .real(refillPerSecond / 1000)]) != nil
    }

    func recordRateDenial(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws
        -> RateDenial?
    {
        guard
            let row = try queryOne(
                """
                UPDATE rate_buckets SET refusals = refusals + 1 WHERE bucket = ?1
                RETURNING min(?2, tokens + max(0, ?3 - updated_at) * ?4) AS available, refusals
                """,
                [.text(bucket), .real(capacity), SQLiteValue(date), .real(refillPerSecond / 1000)])
        else { return nil }
        return RateDenial(available: row.double("available") ?? 0, refusalsInTrip: Int(row.int("refusals") ?? 1))
    }

    func availableRateTokens(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws -> Double? {
        try queryOne(
            "SELECT min(?2, tokens + max(0, ?3 - updated_at) * ?4) AS available FROM rate_buckets WHERE bucket = ?1",
            [.text(bucket), .real(capacity), SQLiteValue(date), .real(refillPerSecond / 1000)]
        ).map { $0.double("available") ?? 0 }
    }

    func deleteRateBuckets(fullBefore date: Date) throws {
        try run("DELETE FROM rate_buckets WHERE full_at < ?", [SQLiteValue(date)])
    }
}
