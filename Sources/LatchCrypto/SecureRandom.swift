internal import CCrypto
import LatchWire

/// Cryptographically secure random values from libcrypto's CSPRNG (`RAND_bytes`), for salts,
/// nonces, opaque tokens and one-time codes (RFC 7515 § 10.1, RFC 4086 randomness requirements).
public enum SecureRandom {
    /// `count` random bytes from `RAND_bytes`.
    ///
    /// Traps only if the CSPRNG itself fails (for example it cannot be seeded): continuing with
    /// predictable values would be worse than stopping.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: negative count")
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var offset = 0
            while offset < count {
                let chunk = min(count - offset, Int(Int32.max))
                guard RAND_bytes(buffer.baseAddress! + offset, Int32(chunk)) == 1 else {
                    fatalError("SecureRandom: RAND_bytes failed; the CSPRNG is unusable")
                }
                offset += chunk
            }
            initialized = count
        }
    }

    /// `byteCount` random bytes as unpadded base64url (RFC 4648 § 5), e.g. for refresh tokens,
    /// authorization codes and session IDs. 32 bytes give 256 bits of entropy in 43 characters.
    public static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(count: byteCount))
    }

    /// `count` uniformly distributed decimal digits (leading zeros kept), e.g. for e-mail/SMS
    /// one-time codes. Uses rejection sampling: bytes ≥ 250 are discarded so `byte % 10` has no
    /// modulo bias.
    public static func digits(_ count: Int) -> String {
        precondition(count >= 0, "SecureRandom.digits: negative count")
        var output: [UInt8] = []
        output.reserveCapacity(count)
        while output.count < count {
            // 250/256 of bytes are accepted; ask for a few extra so one batch usually suffices.
            for byte in bytes(count: count - output.count + 4) where byte < 250 {
                output.append(UInt8(ascii: "0") + byte % 10)
                if output.count == count { break }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `byteCount` random bytes as lowercase hexadecimal (2 × `byteCount` characters).
    public static func hex(byteCount: Int) -> String {
        Hex.encode(bytes(count: byteCount))
    }
}
