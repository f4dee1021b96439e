internal import CCurl

/// The bytes of one upload (an SMTP message), handed to libcurl piece by piece by its read
/// callback on the transfer's thread. Its address is the callback's user data.
///
/// Related libcurl documentation: CURLOPT_READFUNCTION(3), CURLOPT_READDATA(3).
final class CurlUploadSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The number of bytes in all (CURLOPT_INFILESIZE_LARGE(3)).
    var count: Int { bytes.count }

    /// Copies up to `capacity` of the bytes not yet sent to `buffer`; returns how many (0 at the end).
    fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let length = min(capacity, bytes.count - offset)
        guard length > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: length)
        }
        offset += length
        return length
    }

    /// CURLOPT_READFUNCTION: fills libcurl's buffer; `userData` is an unretained reference to a
    /// source. Answers 0 at the end of the bytes, and CURL_READFUNC_ABORT without a source.
    static let readCallback: curl_read_callback = { buffer, size, count, userData in
        guard let buffer, let userData else { return Int(CURL_READFUNC_ABORT) }
        let source = Unmanaged<CurlUploadSource>.fromOpaque(userData).takeUnretainedValue()
        return source.read(into: buffer, capacity: size * count)
    }
}
