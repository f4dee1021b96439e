/// The answer of a device authorization request (RFC 8628 § 3.2), before the adapter adds the
/// verification URIs.
public struct StartedDeviceAuthorization: Sendable, Equatable {
    /// The device code the device polls with (256 random bits, base64url).
    public var deviceCode: String
    /// The user code, in its display form `XXXX-XXXX`.
    public var userCode: String
    /// Seconds until both codes expire.
    public var expiresIn: Int
    /// The minimum seconds between polls.
    public var interval: Int
}
