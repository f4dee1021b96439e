import Foundation
import LatchServer
import Testing

/// ``FlowStateCodec``'s versioned stored form: version 1 is what this server writes and reads back
/// unchanged, and a state a newer server wrote is refused, by the codec and by every store, with an
/// error that names the version rather than a misreading.
@Suite("Flow state codec")
struct FlowStateCodecTests {
    typealias Fixture = StoreConformance

    @Test("a state is written as version 1 and reads back equal")
    func versionOneRoundTrip() throws {
        for state in [Fixture.flowState, FlowState(support: [])] {
            let text = FlowStateCodec.encode(state)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["v"] as? Int == 1)
            #expect(object["state"] is [String: Any])
            #expect(try FlowStateCodec.decode(text) == state)
        }
        #expect(FlowStateCodec.currentVersion == 1)
    }

    @Test("members missing from a stored state take their defaults")
    func missingMembersDefault() throws {
        #expect(try FlowStateCodec.decode(#"{"v":1,"state":{}}"#) == FlowState(support: []))
        #expect(
            try FlowStateCodec.decode(#"{"v":1,"state":{"support":3,"amr":["pwd"]}}"#)
                == FlowState(support: [.password, .oneTimeCode], amr: ["pwd"]))
    }

    @Test("a newer version is refused as unsupported; text of no version is malformed")
    func newerVersionRefused() {
        #expect(throws: FlowStateCodec.DecodingError.unsupportedVersion(2)) { try FlowStateCodec.decode(#"{"v":2,"state":{}}"#) }
        #expect(throws: FlowStateCodec.DecodingError.malformed) { try FlowStateCodec.decode(#"{"state":{}}"#) }
        #expect(throws: FlowStateCodec.DecodingError.malformed) { try FlowStateCodec.decode(#"{"v":0,"state":{}}"#) }
        #expect(throws: FlowStateCodec.DecodingError.malformed) { try FlowStateCodec.decode("not json") }
    }

    @Test("a stored flow of state version 1 reads back equal", arguments: StoreConformance.implementations)
    func storedVersionOne(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let flow = Fixture.flow()
        try store.write { try $0.insert(flow) }
        // Planted as this server's own codec writes it: the stored form is the codec's, not the engine's.
        try subject.overwriteFlowState(flowID: flow.id, with: FlowStateCodec.encode(flow.state))
        #expect(try store.read { try $0.flow(tokenHash: flow.tokenHash) } == flow)
    }

    @Test(
        "a stored flow whose state a newer server wrote is refused as corrupt, naming the version",
        arguments: StoreConformance.implementations)
    func storedNewerVersionRefused(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let flow = Fixture.flow()
        try store.write { try $0.insert(flow) }
        try subject.overwriteFlowState(flowID: flow.id, with: #"{"v":2,"state":{}}"#)

        let error = try #require(throws: StoreError.self) { try store.read { try $0.flow(tokenHash: flow.tokenHash) } }
        guard case .corrupt = error else {
            Issue.record("expected StoreError.corrupt, got \(error)")
            return
        }
        #expect(error.description.contains("version 2"), "\(error)")
        // The same refusal inside a write, where a step would load the flow before advancing it.
        #expect(throws: StoreError.self) { try store.write { try $0.flow(tokenHash: flow.tokenHash) } }
    }
}
