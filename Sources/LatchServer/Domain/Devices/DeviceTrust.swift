import Foundation
import LatchCrypto
import LatchWire

/// Device tokens, the "device cookie" of OWASP's "Slow Down Online Guessing Attacks with Device
/// Cookies": after a successful sign-in the client keeps a token naming the user and a random
/// device id, MACed by the server; presented again with a password, it lets that attempt count
/// against the device's own failure counter instead of the account's, so a stranger's wrong
/// passwords, which delay the account, do not delay the real user on a device that signed in
/// before.
///
/// The MAC is HMAC-SHA256 (RFC 2104) under a key of its own, derived from the data directory's
/// master key with HKDF-SHA256 (RFC 5869, `info` `latch device token mac v1`). The compact form
/// is `ldc1.<payload>.<mac>`, both base64url (RFC 4648 § 5); ``DeviceToken`` describes the
/// payload. The token is not a credential: it grants nothing by itself.
///
/// ```swift
/// let trust = try DeviceTrust(masterKey: masterKey)
/// let token = trust.issue(for: user.id, tenant: tenant, renewing: nil, at: now)   // after a sign-in
/// let device = trust.trusted(PresentedDeviceToken(text), tenant: tenant, userID: user.id, at: now)
/// ```
public struct DeviceTrust: Sendable {
    /// The HKDF `info` of the MAC key.
    static let keyInfo = Array("latch device token mac v1".utf8)

    private let key: [UInt8]

    /// Derives the MAC key from `masterKey`.
    /// - Parameter masterKey: the data directory's master key (32 bytes).
    /// - Throws: ``CryptoError`` when the derivation fails.
    public init(masterKey: [UInt8]) throws {
        key = try HKDF.sha256(inputKey: masterKey, info: Self.keyInfo, outputLength: HMACSHA256.length)
    }

    /// The device `presented` names, when its MAC checks out (compared in constant time), it was
    /// issued in `tenant` to `userID`, it has not expired at `now`, and the tenant honours device
    /// tokens; else `nil`, whatever the reason, so a bad token is simply absent.
    func trusted(_ presented: PresentedDeviceToken?, tenant: Tenant, userID: String?, at now: Date) -> DeviceToken? {
        guard let presented else { return nil }
        // The MAC is checked first, whatever else holds, so an unknown account costs the same.
        guard HMACSHA256.isValid(presented.mac, for: presented.signingInput, key: key),
            let token = DeviceToken(payload: presented.payload), let userID
        else { return nil }
        guard tenant.settings.deviceTokenLifetime >= 1, token.tenantID == tenant.id, token.userID == userID,
            now < token.expiresAt
        else { return nil }
        return token
    }

    /// A device token for `userID` after a successful sign-in at `now`, valid for the tenant's
    /// lifetime: `renewing`'s device id when the sign-in presented a trusted token (a rolling
    /// renewal, so the device keeps its counter), else a new one. `nil` when the tenant issues no
    /// device tokens.
    func issue(for userID: String, tenant: Tenant, renewing: DeviceToken?, at now: Date) -> String? {
        let lifetime = tenant.settings.deviceTokenLifetime
        guard lifetime >= 1 else { return nil }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let token = DeviceToken(
            tenantID: tenant.id, userID: userID, deviceID: renewing?.deviceID ?? DeviceToken.newDeviceID(),
            issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(TimeInterval(lifetime)))
        return seal(token)
    }

    /// The compact form of `token`; `nil` when an id is too long for the payload.
    func seal(_ token: DeviceToken) -> String? {
        guard let payload = token.payload else { return nil }
        let signingInput = "\(PresentedDeviceToken.version).\(Base64URL.encode(payload))"
        guard let mac = try? HMACSHA256.mac(Array(signingInput.utf8), key: key) else { return nil }
        return "\(signingInput).\(Base64URL.encode(mac))"
    }
}
