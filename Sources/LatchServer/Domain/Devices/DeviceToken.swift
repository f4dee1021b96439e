import Foundation
import LatchCrypto

/// What a device token says: this device signed in successfully as this user of this tenant
/// (OWASP "Slow Down Online Guessing Attacks with Device Cookies"). ``DeviceTrust`` MACs it into
/// the compact form `ldc1.<payload>.<mac>` and checks it when it comes back.
///
/// The payload is binary, each string a 1-byte length and its UTF-8 bytes:
/// `tenant id · user id · device id · issued-at · expiry`, the two times as 8-byte big-endian
/// seconds since 1970. It is not encrypted: it names only ids, never a credential.
public struct DeviceToken: Sendable, Equatable {
    /// The tenant the user belongs to.
    public let tenantID: String
    /// The user who signed in on the device.
    public let userID: String
    /// A random id naming the device (128 bits, base64url); kept when the token is renewed.
    public let deviceID: String
    /// When this token was issued (whole seconds).
    public let issuedAt: Date
    /// When it stops being honoured (whole seconds).
    public let expiresAt: Date

    /// A new device id.
    static func newDeviceID() -> String { SecureRandom.token(byteCount: 16) }

    /// The key of this device's failure counter: a SHA-256 over a label, the user and the device,
    /// NUL-separated, so it never equals the key of an address without an account (which hashes
    /// the tenant id and the address) and tells nothing about the device id.
    var counterKey: String {
        Digest.sha256Hex("latch device\u{0}\(userID)\u{0}\(deviceID)")
    }

    /// The binary payload; `nil` when a string is longer than 255 bytes.
    var payload: [UInt8]? {
        var bytes: [UInt8] = []
        for field in [tenantID, userID, deviceID] {
            let utf8 = Array(field.utf8)
            guard utf8.count <= Int(UInt8.max) else { return nil }
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        for date in [issuedAt, expiresAt] {
            let seconds = UInt64(clamping: Int64(date.timeIntervalSince1970.rounded(.down)))
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: seconds >> (UInt64($0) * 8)) }
        }
        return bytes
    }

    /// Decodes a payload; `nil` unless it holds exactly the five fields.
    init?(payload: [UInt8]) {
        var index = 0
        func string() -> String? {
            guard index < payload.count else { return nil }
            let length = Int(payload[index])
            index += 1
            guard length > 0, payload.count - index >= length else { return nil }
            defer { index += length }
            return String(validating: payload[index..<(index + length)], as: UTF8.self)
        }
        func date() -> Date? {
            guard payload.count - index >= 8 else { return nil }
            defer { index += 8 }
            let seconds = payload[index..<(index + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard seconds <= UInt64(Int64.max) else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        guard let tenantID = string(), let userID = string(), let deviceID = string(), let issuedAt = date(),
            let expiresAt = date(), index == payload.count
        else { return nil }
        self.init(tenantID: tenantID, userID: userID, deviceID: deviceID, issuedAt: issuedAt, expiresAt: expiresAt)
    }

    /// Creates a token.
    init(tenantID: String, userID: String, deviceID: String, issuedAt: Date, expiresAt: Date) {
        self.tenantID = tenantID
        self.userID = userID
        self.deviceID = deviceID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
