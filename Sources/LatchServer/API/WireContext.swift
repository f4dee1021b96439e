import Foundation

/// Values every rendered native-auth error carries besides the request's ids.
enum WireContext {
    /// `yyyy-MM-dd HH:mm:ssZ` in UTC, as the native-auth envelope writes `timestamp`.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int = 2) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day)) \(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))Z"
    }
}
