import Foundation
import LatchWire

/// Compact-serialization JWS signing and verification for JWTs (RFC 7515 § 7.1, RFC 7519 § 7).
///
/// Only the signature layer lives here: claims (`exp`, `iss`, `aud`, …) are encoded and checked
/// by the caller (RFC 7519 § 7.2 step 10 onwards).
public enum JWT {
    /// Signs `payload` as a compact JWS (RFC 7515 § 5.1, RFC 7519 § 7.1).
    ///
    /// The protected header is `{"alg":<key.algorithm>,"kid":<key.id>,"typ":<type>}`.
    /// - Parameters:
    ///   - payload: the JSON bytes of the claims set; the caller encodes it.
    ///   - key: a key that ``SigningKey/canSign``.
    ///   - type: the `typ` header parameter (RFC 7515 § 4.1.9), e.g. `"JWT"` or `"at+jwt"`.
    /// - Returns: `BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(signature)`.
    public static func sign(payload: [UInt8], key: SigningKey, type: String = "JWT") throws(CryptoError) -> String {
        let header = "{\"alg\":\"\(key.algorithm.rawValue)\",\"kid\":\(jsonString(key.id)),\"typ\":\(jsonString(type))}"
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload)
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Verifies a compact JWS and returns its payload bytes (RFC 7515 § 5.2, RFC 7519 § 7.2).
    ///
    /// The key is found through the header's `kid`, and the *key* fixes the algorithm: `alg` must
    /// equal the key's algorithm, so `"none"` and algorithm substitution are always rejected
    /// (RFC 8725 §§ 2.1, 3.1). A `crit` header is rejected because no extensions are understood
    /// (RFC 7515 § 4.1.11). Claims are not checked.
    /// - Parameters:
    ///   - token: the compact serialization.
    ///   - lookup: returns the key registered under a `kid`, or `nil`.
    /// - Throws: ``JWTError`` with the failing check.
    /// - Parameter type: when given, the `typ` header must name it, compared without case and with
    ///   or without the `application/` prefix (RFC 7515 § 4.1.9, RFC 8725 § 3.11).
    public static func verify(_ token: String, type: String? = nil, key lookup: (String) -> SigningKey?) throws(JWTError)
        -> [UInt8]
    {
        try verify(token, type: type, keyForID: { kid in kid.flatMap(lookup) })
    }

    /// Verifies a compact JWS like ``verify(_:type:key:)``, but the lookup also sees a header
    /// without `kid` (as `nil`), for key sets where the only key needs no id (RFC 7515 § 4.1.4:
    /// `kid` is optional; RFC 7517 § 4.5).
    /// - Parameters:
    ///   - token: the compact serialization.
    ///   - type: when given, the `typ` header must name it (see ``verify(_:type:key:)``).
    ///   - lookup: returns the key for the header's `kid` (or for no `kid`), or `nil`.
    /// - Throws: ``JWTError`` with the failing check.
    public static func verify(_ token: String, type: String? = nil, keyForID lookup: (String?) -> SigningKey?)
        throws(JWTError) -> [UInt8]
    {
        guard let parts = CompactParts(token) else { throw .malformed }
        guard let headerBytes = decodeSegment(parts.header),
            let payload = decodeSegment(parts.payload),
            let signature = decodeSegment(parts.signature),
            let header = try? JSONDecoder().decode(JWTHeader.self, from: Data(headerBytes)),
            let alg = header.alg, header.crit == nil
        else { throw .malformed }
        if alg == "none" { throw .algorithmMismatch }
        guard let key = lookup(header.kid) else { throw .unknownKey }
        guard alg == key.algorithm.rawValue else { throw .algorithmMismatch }
        guard key.isValidSignature(signature, for: Array(parts.signingInput.utf8)) else { throw .badSignature }
        if let type {
            let actual = (header.typ ?? "").lowercased()
            let expected = type.lowercased()
            guard actual == expected || actual == "application/" + expected else { throw .wrongType }
        }
        return payload
    }

    /// The payload of a compact JWS **without verifying anything** (RFC 7515 § 7.1). For debugging
    /// and SDK display only; never base a decision on it.
    /// - Returns: the decoded payload, or `nil` if the token is not three base64url segments.
    public static func unverifiedPayload(_ token: String) -> [UInt8]? {
        CompactParts(token).flatMap { decodeSegment($0.payload) }
    }

    // MARK: - Private

    /// The three segments of a compact JWS, plus the signing input they were cut from.
    private struct CompactParts {
        let header: Substring
        let payload: Substring
        let signature: Substring
        let signingInput: Substring

        init?(_ token: String) {
            let segments = token.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
            guard segments.count == 3, !segments[0].isEmpty else { return nil }
            header = segments[0]
            payload = segments[1]
            signature = segments[2]
            signingInput = token[segments[0].startIndex..<segments[1].endIndex]
        }
    }

    /// Base64url without padding (RFC 7515 § 2), strictly: `=` and the base64 (not base64url)
    /// characters `+` and `/` are refused, so one token has exactly one spelling.
    private static func decodeSegment(_ segment: Substring) -> [UInt8]? {
        if segment.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }) {
            return nil
        }
        return Base64URL.decode(segment)
    }

    /// `text` as a JSON string literal (RFC 8259 § 7).
    static func jsonString(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
