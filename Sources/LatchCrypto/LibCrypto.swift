internal import CCrypto

/// Small internal helpers shared by every wrapper around OpenSSL 3 libcrypto.
enum LibCrypto {
    /// Builds a ``CryptoError`` for a failed libcrypto call and drains this thread's OpenSSL
    /// error queue so stale entries never leak into later, unrelated failures.
    /// - Parameter operation: what was being attempted (no secrets).
    static func failure(_ operation: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return CryptoError(operation) }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let reason = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return CryptoError("\(operation) (\(reason))")
    }

    /// Discards queued OpenSSL errors after a failure that is reported as a plain `false`.
    static func clearErrors() {
        ERR_clear_error()
    }

    /// Reads everything pending in a memory BIO.
    static func drain(_ bio: OpaquePointer) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = chunk.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
            if read <= 0 { break }
            output.append(contentsOf: chunk[0..<Int(read)])
        }
        OPENSSL_cleanse(&chunk, chunk.count)
        return output
    }
}

extension StaticString {
    /// The literal as a NUL-terminated C string with static storage duration.
    ///
    /// Some libcrypto calls (`EVP_PKEY_CTX_new_from_name`, `OSSL_PARAM_BLD_push_*`) keep the
    /// pointer they are given instead of copying it, so a temporary bridged Swift `String`
    /// would dangle; literals live for the whole process.
    var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
