import Foundation

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Fast UTC timestamps for log lines and error envelopes, from `gmtime_r(3)`: no formatter, no
/// locale, no ICU, so writing one costs well under a microsecond.
enum UTCTimestamp {
    /// RFC 3339 (`2026-12-01T09:30:00Z`), for log lines.
    static func rfc3339(_ date: Date = Date()) -> String {
        format(date, dateTimeSeparator: "T")
    }

    /// `2026-12-01 09:30:00Z`, as the native-auth envelope writes `timestamp`.
    static func nativeAuth(_ date: Date) -> String {
        format(date, dateTimeSeparator: " ")
    }

    private static func format(_ date: Date, dateTimeSeparator: Character) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "1970-01-01\(dateTimeSeparator)00:00:00Z" }
        var text = ""
        text.reserveCapacity(20)
        append(Int(parts.tm_year) + 1900, width: 4, to: &text)
        text.append("-")
        append(Int(parts.tm_mon) + 1, width: 2, to: &text)
        text.append("-")
        append(Int(parts.tm_mday), width: 2, to: &text)
        text.append(dateTimeSeparator)
        append(Int(parts.tm_hour), width: 2, to: &text)
        text.append(":")
        append(Int(parts.tm_min), width: 2, to: &text)
        text.append(":")
        append(Int(parts.tm_sec), width: 2, to: &text)
        text.append("Z")
        return text
    }

    private static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text.append(String(repeating: "0", count: width - digits.count)) }
        text.append(digits)
    }
}
