import LatchCrypto

/// A client's protection policy: requests must show evidence the app's own compliance check
/// produced. The one policy so far, `app_attestation`, wants the `Latch-App-Attestation` header to
/// name one of the client's registered key ids (``Client/attestationKeyIDs``); the app sets it with
/// the SDK's `LatchConfiguration.requestHeaders`. A request without it is refused with
/// `unauthorized_client` + `protection_policy_required` + `protection_policy`, which the SDK
/// reports as `serverProtectionPoliciesRequired` naming the policy.
enum ClientProtection {
    /// The request header carrying the attestation key id.
    static let attestationHeader = "Latch-App-Attestation"
    /// The policy's name on the wire.
    static let appAttestation = "app_attestation"

    /// Refuses a request of `client` whose `attestation` is not one of its registered key ids.
    /// - Throws: ``AuthFailure/protectionPolicyRequired(_:)``.
    static func enforce(_ client: Client, attestation: String?) throws {
        guard !client.attestationKeyIDs.isEmpty else { return }
        let presented = Array((attestation ?? "").utf8)
        // Compared in constant time: the key ids are the app's evidence, not public names.
        let known = client.attestationKeyIDs.reduce(false) { found, keyID in
            ConstantTime.equals(presented, Array(keyID.utf8)) || found
        }
        guard known else { throw AuthFailure.protectionPolicyRequired(appAttestation) }
    }

    /// Whether `keyID` can be registered: 1–128 printable ASCII characters, no spaces.
    static func isValidKeyID(_ keyID: String) -> Bool {
        (1...128).contains(keyID.utf8.count) && keyID.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
