/// Strict UTF-8 decoding (RFC 3629): no replacement characters, no surrogates, no overlong forms.
enum UTF8Validation {
    /// The string for `bytes` if they are well-formed UTF-8, else `nil`.
    static func string(from bytes: some Collection<UInt8>) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
