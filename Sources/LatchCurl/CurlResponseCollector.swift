internal import CCurl
import Foundation

/// What one transfer receives, gathered by libcurl's callbacks on the transfer's thread: the
/// header block of the final response and the body. Its address is the callbacks' user data.
///
/// Related libcurl documentation: CURLOPT_WRITEFUNCTION(3), CURLOPT_HEADERFUNCTION(3),
/// CURLOPT_XFERINFOFUNCTION(3).
final class CurlResponseCollector {
    /// The body received so far.
    private(set) var body = Data()
    /// The header fields of the latest response, in order, obsolete line folding undone.
    private(set) var headerFields: [(name: String, value: String)] = []
    /// Asked by the progress callback whether to abort.
    let cancellation: CurlCancellation

    init(cancellation: CurlCancellation) {
        self.cancellation = cancellation
    }

    /// The fields as `HTTPURLResponse` takes them: repeated names joined with `", "` (RFC 9110
    /// § 5.3), under the first spelling seen.
    var headerDictionary: [String: String] {
        var fields: [String: String] = [:]
        var spelling: [String: String] = [:]
        for (name, value) in headerFields {
            let key = name.lowercased()
            if let existing = spelling[key] {
                fields[existing] = fields[existing].map { $0 + ", " + value } ?? value
            } else {
                spelling[key] = name
                fields[name] = value
            }
        }
        return fields
    }

    /// Takes one header line as libcurl delivers it (status line, field, or the empty line). A new
    /// status line starts a new header block, so interim (1xx) responses leave nothing behind.
    fileprivate func receiveHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var line = String(decoding: bytes, as: UTF8.self)
        while line.last?.isNewline == true { line.removeLast() }  // "\r\n" is one Character
        if line.hasPrefix("HTTP/") {
            headerFields = []
        } else if let first = line.first, first == " " || first == "\t", let last = headerFields.popLast() {
            let continued = line.trimmingCharacters(in: .whitespaces)
            headerFields.append((last.name, last.value.isEmpty ? continued : last.value + " " + continued))
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headerFields.append((name, value))
        }
    }

    fileprivate func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        body.append(bytes)
    }

    // MARK: - The C callbacks; `userData` is an unretained reference to a collector.

    /// CURLOPT_WRITEFUNCTION: appends to the body; returns the bytes taken.
    static let writeCallback: curl_write_callback = { data, size, count, userData in
        deliver(data, size * count, to: userData) { collector, bytes in collector.receiveBody(bytes) }
    }

    /// CURLOPT_HEADERFUNCTION: takes one header line; returns the bytes taken.
    static let headerCallback: curl_write_callback = { data, size, count, userData in
        deliver(data, size * count, to: userData) { collector, bytes in collector.receiveHeaderLine(bytes) }
    }

    /// Hands `length` bytes at `data` to the collector at `userData`; answers the bytes taken, or 0
    /// (which makes libcurl fail the transfer) without a collector.
    private static func deliver(
        _ data: UnsafeMutablePointer<CChar>?, _ length: Int, to userData: UnsafeMutableRawPointer?,
        _ receive: (CurlResponseCollector, UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int {
        guard let userData else { return 0 }
        if let data, length > 0 {
            receive(
                Unmanaged<CurlResponseCollector>.fromOpaque(userData).takeUnretainedValue(),
                UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
        }
        return length
    }

    /// CURLOPT_XFERINFOFUNCTION: called at least about once a second, even while nothing moves;
    /// a non-zero answer aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
    static let progressCallback: curl_xferinfo_callback = { userData, _, _, _, _ in
        guard let userData else { return 0 }
        let collector = Unmanaged<CurlResponseCollector>.fromOpaque(userData).takeUnretainedValue()
        return collector.cancellation.isCancelled ? 1 : 0
    }
}
