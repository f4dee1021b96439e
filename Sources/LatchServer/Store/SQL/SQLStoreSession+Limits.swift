import Foundation

/// Token buckets in `rate_buckets`: the level as REAL tokens and the time of the last change in
/// milliseconds. Each take is one `INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING`
/// (https://sqlite.org/lang_upsert.html, https://www.postgresql.org/docs/15/sql-insert.html#SQL-ON-CONFLICT),
/// whose SET expressions all read the row as it was, so the refill, the check and the take happen
/// in one step. `full_at` (rounded up to the next
/// millisecond) is when an idle bucket is full again, and so can be deleted.
extension SQLStoreSession: LimitWriting {
    func takeRateToken(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws -> Bool {
        try queryOne(
            RateBucketSQL.of(dialect).take,
            [.text(bucket), .real(capacity), SQLValue(date), .real(refillPerSecond / 1000)]) != nil
    }

    func recordRateDenial(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws
        -> RateDenial?
    {
        guard
            let row = try queryOne(
                RateBucketSQL.of(dialect).deny,
                [.text(bucket), .real(capacity), SQLValue(date), .real(refillPerSecond / 1000)])
        else { return nil }
        return RateDenial(available: row.double("available") ?? 0, refusalsInTrip: Int(row.int("refusals") ?? 1))
    }

    func availableRateTokens(bucket: String, capacity: Double, refillPerSecond: Double, at date: Date) throws -> Double? {
        try queryOne(
            RateBucketSQL.of(dialect).available,
            [.text(bucket), .real(capacity), SQLValue(date), .real(refillPerSecond / 1000)]
        ).map { $0.double("available") ?? 0 }
    }

    func deleteRateBuckets(fullBefore date: Date) throws {
        try run("DELETE FROM rate_buckets WHERE full_at < ?", [SQLValue(date)])
    }
}

/// The rate-bucket statements in each engine's spelling, built once. Parameters: ?1 bucket,
/// ?2 capacity, ?3 now (ms), ?4 refill per millisecond.
private struct RateBucketSQL {
    static let sqlite = RateBucketSQL(.sqlite)
    static let postgres = RateBucketSQL(.postgres)

    static func of(_ dialect: SQLDialect) -> RateBucketSQL { dialect == .sqlite ? sqlite : postgres }

    let take: String
    let deny: String
    let available: String

    private init(_ dialect: SQLDialect) {
        // The level now: the stored tokens plus the refill since the last change, at most the
        // capacity. Columns are qualified, as an upsert's SET clause needs in PostgreSQL.
        let level = dialect.least(
            "?2", "rate_buckets.tokens + \(dialect.greatest("0", "?3 - rate_buckets.updated_at")) * ?4")
        let updated = dialect.greatest("rate_buckets.updated_at", "?3")
        take = """
            INSERT INTO rate_buckets (bucket, tokens, updated_at, full_at, refusals)
            VALUES (?1, ?2 - 1, ?3, ?3 + \(dialect.truncatedInteger("1 / ?4")) + 1, 0)
            ON CONFLICT (bucket) DO UPDATE SET
                tokens = \(level) - 1,
                updated_at = \(updated),
                full_at = \(updated) + \(dialect.truncatedInteger("(?2 - (\(level) - 1)) / ?4")) + 1,
                refusals = 0
            WHERE \(level) >= 1
            RETURNING tokens
            """
        deny = """
            UPDATE rate_buckets SET refusals = refusals + 1 WHERE bucket = ?1
            RETURNING \(level) AS available, refusals
            """
        available = "SELECT \(level) AS available FROM rate_buckets WHERE bucket = ?1"
    }
}
