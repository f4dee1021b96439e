import Foundation

extension LatchConfiguration {
    /// Checks what the client cannot work with, before any request.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` naming the first challenge type or
    ///   capability this version of the SDK cannot complete, a server URL that already ends with
    ///   the tenant, or a negative ``minimumValidity``.
    func validate() throws {
        if let unknown = challengeTypes.first(where: { !ChallengeType.supported.contains($0) }) {
            throw LatchError.invalidConfiguration(
                "The challenge type '\(unknown)' is not supported by this version of the SDK; use .oob and .password.")
        }
        if let unsupported = capabilities.first(where: { !Capability.supported.contains($0) }) {
            throw LatchError.invalidConfiguration(
                "The capability '\(unsupported)' cannot be completed by this version of the SDK; "
                    + "without it the server answers that step with browserRequired.")
        }
        if serverURL.path.split(separator: "/").last.map(String.init) == tenant {
            throw LatchError.invalidConfiguration(
                "The server URL \(serverURL.absoluteString) already ends with the tenant '\(tenant)'; "
                    + "pass the server origin (without /\(tenant)) as serverURL, or load it with LatchSettings.")
        }
        guard minimumValidity >= 0, minimumValidity.isFinite else {
            throw LatchError.invalidConfiguration(
                "minimumValidity must be a finite number of seconds, zero or more; it is \(minimumValidity).")
        }
    }
}

extension LatchError {
    /// A configuration the client refuses (``Code/invalidConfiguration``).
    static func invalidConfiguration(_ message: String) -> LatchError {
        LatchError(code: .invalidConfiguration, message: message)
    }
}
