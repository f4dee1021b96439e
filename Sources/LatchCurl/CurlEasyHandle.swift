internal import CCurl

/// One libcurl easy handle (`CURL *`) and the error buffer libcurl writes its messages into.
///
/// A handle is used by one thread at a time: ``CurlHandlePool`` lends it to one transfer, which
/// returns it when done. Between transfers ``reset()`` clears every option but keeps what makes
/// reuse worthwhile — live connections, the TLS session cache and the DNS cache.
///
/// Related libcurl documentation: curl_easy_init(3), curl_easy_reset(3), curl_easy_cleanup(3),
/// CURLOPT_ERRORBUFFER(3).
final class CurlEasyHandle: @unchecked Sendable {  // Used by one thread at a time: the pool lends it exclusively.
    /// The handle; never escapes LatchCurl.
    let pointer: UnsafeMutableRawPointer
    /// `CURL_ERROR_SIZE` bytes for CURLOPT_ERRORBUFFER.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private static let errorBufferSize = Int(CURL_ERROR_SIZE)

    /// Makes a handle, or `nil` when libcurl cannot (it failed to initialise, or is out of memory).
    init?() {
        guard CurlGlobal.isReady, let pointer = curl_easy_init() else { return nil }
        self.pointer = pointer
        errorBuffer = .allocate(capacity: Self.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: Self.errorBufferSize)
    }

    deinit {
        curl_easy_cleanup(pointer)
        errorBuffer.deallocate()
    }

    /// Clears every option (curl_easy_reset(3)) and points CURLOPT_ERRORBUFFER at an empty buffer.
    func reset() {
        curl_easy_reset(pointer)
        errorBuffer.update(repeating: 0, count: Self.errorBufferSize)
        _ = latch_curl_setopt_pointer(pointer, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// The message libcurl left in the error buffer for the last transfer, or `""`.
    var errorMessage: String {
        errorBuffer[Self.errorBufferSize - 1] = 0
        return String(cString: errorBuffer).trimmingTrailingNewlines()
    }

    // MARK: - Options (curl_easy_setopt(3))

    func set(_ option: CURLoption, _ value: Int) throws(CurlSetupError) {
        try check(latch_curl_setopt_long(pointer, option, value), option)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlSetupError) {
        try check(latch_curl_setopt_off_t(pointer, option, curl_off_t(value)), option)
    }

    /// Sets a string option; libcurl copies `value`.
    func set(_ option: CURLoption, _ value: String) throws(CurlSetupError) {
        try check(latch_curl_setopt_string(pointer, option, value), option)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlSetupError) {
        try check(latch_curl_setopt_pointer(pointer, option, value), option)
    }

    func set(_ option: CURLoption, list value: UnsafeMutablePointer<curl_slist>?) throws(CurlSetupError) {
        try check(latch_curl_setopt_slist(pointer, option, value), option)
    }

    func set(_ option: CURLoption, writeCallback value: curl_write_callback) throws(CurlSetupError) {
        try check(latch_curl_setopt_write_callback(pointer, option, value), option)
    }

    func set(readCallback value: curl_read_callback) throws(CurlSetupError) {
        try check(latch_curl_setopt_read_callback(pointer, value), CURLOPT_READFUNCTION)
    }

    func set(progressCallback value: curl_xferinfo_callback) throws(CurlSetupError) {
        try check(latch_curl_setopt_xferinfo_callback(pointer, value), CURLOPT_XFERINFOFUNCTION)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlSetupError) {
        guard code == CURLE_OK else { throw CurlSetupError(option: option, code: code) }
    }

    // MARK: - Transfer and information (curl_easy_perform(3), curl_easy_getinfo(3))

    /// Runs the transfer configured so far, blocking the calling thread until it ends.
    func perform() -> CURLcode { curl_easy_perform(pointer) }

    /// A `long` information item, or `nil` when libcurl has none.
    func info(_ item: CURLINFO) -> Int? {
        var value = 0
        return latch_curl_getinfo_long(pointer, item, &value) == CURLE_OK ? value : nil
    }

    /// A string information item, or `nil` when libcurl has none.
    func info(string item: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard latch_curl_getinfo_string(pointer, item, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

/// libcurl refused an option: this libcurl lacks a feature LatchCurl needs (curl_easy_setopt(3),
/// RETURN VALUE).
struct CurlSetupError: Error {
    let option: CURLoption
    let code: CURLcode

    /// `curl_easy_strerror` of the code, with the option's number.
    var message: String {
        "libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))"
    }
}

extension String {
    /// The string without trailing line breaks (libcurl's messages may end in one).
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
