import Foundation

/// Writes text to the standard streams.
enum FileHandleOutput {
    static func standardOutput(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    static func standardError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
