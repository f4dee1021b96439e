#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Writes diagnostic lines to standard error, one `write(2)` per line so that lines from
/// concurrent threads do not interleave.
enum StandardError {
    static func write(_ line: String) {
        var text = line
        if !text.hasSuffix("\n") { text += "\n" }
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                #if canImport(Darwin)
                    let written = Darwin.write(STDERR_FILENO, base + offset, buffer.count - offset)
                #else
                    let written = Glibc.write(STDERR_FILENO, base + offset, buffer.count - offset)
                #endif
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
