internal import CCrypto

/// Converts ECDSA signatures between libcrypto's DER `Ecdsa-Sig-Value` and the fixed-width
/// `R || S` octet string JWS uses (RFC 7518 § 3.4).
enum ECDSASignature {
    /// `R || S`, each left-padded to `coordinateSize` bytes, from a DER signature.
    static func raw(fromDER der: [UInt8], coordinateSize: Int) -> [UInt8]? {
        der.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else {
                LibCrypto.clearErrors()
                return nil
            }
            defer { ECDSA_SIG_free(signature) }
            var r: OpaquePointer?
            var s: OpaquePointer?
            ECDSA_SIG_get0(signature, &r, &s)
            var output = [UInt8](repeating: 0, count: 2 * coordinateSize)
            let written = output.withUnsafeMutableBufferPointer { out -> Bool in
                BN_bn2binpad(r, out.baseAddress, Int32(coordinateSize)) == Int32(coordinateSize)
                    && BN_bn2binpad(s, out.baseAddress! + coordinateSize, Int32(coordinateSize))
                        == Int32(coordinateSize)
            }
            return written ? output : nil
        }
    }

    /// A DER signature from `R || S`; `nil` unless `raw` is exactly `2 * coordinateSize` bytes.
    static func der(fromRaw raw: [UInt8], coordinateSize: Int) -> [UInt8]? {
        guard raw.count == 2 * coordinateSize, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let assigned = raw.withUnsafeBufferPointer { buffer -> Bool in
            let r = BN_bin2bn(buffer.baseAddress, Int32(coordinateSize), nil)
            let s = BN_bin2bn(buffer.baseAddress! + coordinateSize, Int32(coordinateSize), nil)
            // On success ECDSA_SIG_set0 takes ownership of both numbers.
            guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                return false
            }
            return true
        }
        guard assigned else { return nil }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? output : nil
    }
}
