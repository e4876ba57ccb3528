import Fleet
import Pipeline

/// The MQTT positions of a recording (`--mqtt`): hands every final fix to the publisher, which rate-limits, queues on
/// disk and sends from its own thread (this never waits for the network). Trips go through ``TripConsumer``.
final class MQTTConsumer: RecordConsumer {
    private let publisher: FleetPublisher

    init(_ publisher: FleetPublisher) { self.publisher = publisher }

    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
        for record in records {
            if case .fix(let fix) = record.content, !fix.isProvisional { publisher.publish(fix) }
        }
    }
}
