import LatchWire

/// A device token as a client sent it (`device_token`), split and decoded but not yet trusted:
/// ``DeviceTrust`` checks its MAC and claims. Anything that is not the shape of a device token
/// parses to `nil` and is treated as absent, so a bad token never changes an answer.
public struct PresentedDeviceToken: Sendable, Equatable {
    /// The version label the compact form starts with.
    static let version = "ldc1"
    /// The longest text considered (a real token is about 200 characters).
    static let maximumLength = 512

    /// The bytes the MAC covers: the ASCII of `ldc1.<payload>`, so the version is covered too.
    let signingInput: [UInt8]
    /// The decoded payload.
    let payload: [UInt8]
    /// The decoded MAC.
    let mac: [UInt8]

    /// Parses the compact form `ldc1.<base64url payload>.<base64url MAC>` (RFC 4648 § 5, unpadded).
    /// - Returns: `nil` for text that is oversized, has another version or shape, or is not base64url.
    public init?(_ text: String) {
        guard text.utf8.count <= Self.maximumLength else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.version, !parts[1].isEmpty,
            let payload = Base64URL.decode(parts[1]), let mac = Base64URL.decode(parts[2]), mac.count == 32
        else { return nil }
        signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        self.payload = payload
        self.mac = mac
    }
}
