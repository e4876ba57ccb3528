import AIS
import NMEA
import Simulation
import TestSupport
import Testing

/// The typed reports (``AISReport``) read the same fields as the tables that the JSON writer and gpsd's comparison
/// walk: every value of every report equals ``AISMessage/value(named:)``, on the real logs and on generated traffic.
@Suite("AIS typed reports")
struct AISReportTests {
    /// A report's values by gpsd's field names, as ``AISMessage/value(named:)`` gives them.
    static func values(_ report: AISReport) -> [(StaticString, AISValue?)] {
        func n(_ value: Double?) -> AISValue? { value.map { .number($0) } }
        func i(_ value: Int?) -> AISValue? { value.map { .integer($0) } }
        func b(_ value: Bool) -> AISValue? { .bool(value) }
        func t(_ value: AISText) -> AISValue? { .text(value) }
        switch report {
        case .position(let r):
            return [
                ("status", i(r.status)), ("turn", n(r.turn)), ("speed", n(r.speed)), ("accuracy", b(r.accuracy)),
                ("lon", n(r.longitude)), ("lat", n(r.latitude)), ("course", n(r.course)), ("heading", i(r.heading)),
                ("second", i(r.second)), ("maneuver", i(r.maneuver)), ("raim", b(r.raim)), ("radio", i(r.radio)),
            ]
        case .classBPosition(let r):
            return [
                ("speed", n(r.speed)), ("accuracy", b(r.accuracy)), ("lon", n(r.longitude)), ("lat", n(r.latitude)),
                ("course", n(r.course)), ("heading", i(r.heading)), ("second", i(r.second)),
                ("cs", b(r.carrierSense)), ("display", b(r.display)), ("dsc", b(r.dsc)), ("band", b(r.band)),
                ("msg22", b(r.acceptsChannelManagement)), ("raim", b(r.raim)), ("radio", i(r.radio)),
            ]
        case .baseStation(let r):
            return [
                (
                    "timestamp",
                    .timestamp(
                        year: r.year, month: r.month, day: r.day, hour: r.hour, minute: r.minute, second: r.second)
                ),
                ("accuracy", b(r.accuracy)), ("lon", n(r.longitude)), ("lat", n(r.latitude)), ("epfd", i(r.epfd)),
                ("raim", b(r.raim)), ("radio", i(r.radio)),
            ]
        case .staticAndVoyage(let r):
            return [
                ("imo", i(r.imo)), ("ais_version", i(r.aisVersion)), ("callsign", t(r.callSign)),
                ("shipname", t(r.shipName)), ("shiptype", i(r.shipType)), ("to_bow", i(r.toBow)),
                ("to_stern", i(r.toStern)), ("to_port", i(r.toPort)), ("to_starboard", i(r.toStarboard)),
                ("epfd", i(r.epfd)),
                ("eta", .monthDayTime(month: r.eta.month, day: r.eta.day, hour: r.eta.hour, minute: r.eta.minute)),
                ("draught", n(r.draught)), ("destination", t(r.destination)), ("dte", i(r.dte)),
            ]
        case .extendedClassB(let r):
            return [
                ("speed", n(r.speed)), ("accuracy", b(r.accuracy)), ("lon", n(r.longitude)), ("lat", n(r.latitude)),
                ("course", n(r.course)), ("heading", i(r.heading)), ("second", i(r.second)),
                ("shipname", t(r.shipName)), ("shiptype", i(r.shipType)), ("to_bow", i(r.toBow)),
                ("to_stern", i(r.toStern)), ("to_port", i(r.toPort)), ("to_starboard", i(r.toStarboard)),
                ("epfd", i(r.epfd)), ("raim", b(r.raim)), ("dte", i(r.dte)), ("assigned", b(r.assigned)),
            ]
        case .aidToNavigation(let r):
            return [
                ("aid_type", i(r.aidType)), ("name", t(r.name)), ("accuracy", b(r.accuracy)),
                ("lon", n(r.longitude)), ("lat", n(r.latitude)), ("to_bow", i(r.toBow)), ("to_stern", i(r.toStern)),
                ("to_port", i(r.toPort)), ("to_starboard", i(r.toStarboard)), ("epfd", i(r.epfd)),
                ("second", i(r.second)), ("off_position", b(r.offPosition)), ("raim", b(r.raim)),
                ("virtual_aid", b(r.isVirtual)),
            ]
        case .staticData(let r):
            var values: [(StaticString, AISValue?)] = [
                ("shipname", t(r.shipName)), ("shiptype", i(r.shipType)), ("vendorid", t(r.vendorID)),
                ("model", i(r.model)), ("serial", i(r.serial)), ("callsign", t(r.callSign)),
            ]
            if r.mothershipMMSI != nil {
                values.append(("mothership_mmsi", i(r.mothershipMMSI)))
            } else {
                values += [
                    ("to_bow", i(r.toBow)), ("to_stern", i(r.toStern)), ("to_port", i(r.toPort)),
                    ("to_starboard", i(r.toStarboard)),
                ]
            }
            return values
        case .longRange(let r):
            return [
                ("status", i(r.status)), ("accuracy", b(r.accuracy)), ("lon", n(r.longitude)),
                ("lat", n(r.latitude)), ("speed", i(r.speed)), ("course", i(r.course)), ("raim", b(r.raim)),
                ("gnss", b(r.isStale)),
            ]
        case .other:
            return []
        }
    }

    /// Checks every message's report against the table; returns how many messages had a report, by type.
    static func check(_ messages: [AISMessage]) -> [Int: Int] {
        var reported: [Int: Int] = [:]
        for message in messages {
            let report = message.report
            let values = values(report)
            guard !values.isEmpty else {
                #expect([1, 2, 3, 4, 5, 11, 18, 19, 21, 24, 27].contains(message.type) == false)
                continue
            }
            reported[message.type, default: 0] += 1
            var tableNames: [String] = []
            message.forEachField { field in tableNames.append(field.name.description) }
            // Every field of the type's table is in the report, but for the header, spare and regional bits.
            let skipped: Set<String> = ["type", "repeat", "mmsi", "reserved", "regional"]
            #expect(values.map(\.0.description) == tableNames.filter { !skipped.contains($0) }, "type \(message.type)")
            for (name, value) in values {
                #expect(value == message.value(named: name), "type \(message.type) \(name)")
            }
        }
        return reported
    }

    /// The accessors (`position`, `speedKnots`…), which read the reports, against the same values read by name from
    /// the tables.
    static func checkAccessors(_ messages: [AISMessage]) {
        for message in messages {
            func number(_ name: StaticString) -> Double? {
                switch message.value(named: name) {
                case .integer(let value): Double(value)
                case .number(let value): value
                default: nil
                }
            }
            func text(_ name: StaticString) -> String? {
                guard case .text(let text) = message.value(named: name), !text.isEmpty else { return nil }
                return message.string(text)
            }
            let type = message.type
            let position =
                type == 22 || type == 23 ? nil : number("lat").flatMap { lat in number("lon").map { (lat, $0) } }
            #expect(message.position?.latitude == position?.0 && message.position?.longitude == position?.1, "\(type)")
            let moving = type != 6 && type != 8
            #expect(message.speedKnots == (moving ? number("speed") : nil), "type \(type)")
            #expect(message.courseDegrees == (moving ? number("course") : nil), "type \(type)")
            #expect(message.headingDegrees == number("heading").map { Int($0) }, "type \(type)")
            #expect(
                message.navigationStatus == ([1, 2, 3, 27].contains(type) ? number("status").map { Int($0) } : nil))
            let names = [5, 19, 24].contains(type) ? text("shipname") : type == 21 ? text("name") : nil
            #expect(message.shipName == names, "type \(type)")
            #expect(message.callSign == text("callsign"), "type \(type)")
            #expect(message.destination == (type == 5 ? text("destination") : nil), "type \(type)")
            #expect(message.shipType == ([5, 19, 24].contains(type) ? number("shiptype").map { Int($0) } : nil))
            var dimensions: (Int, Int)?
            if let bow = number("to_bow"), let stern = number("to_stern"), let port = number("to_port"),
                let starboard = number("to_starboard"), bow + stern > 0
            {
                dimensions = (Int(bow + stern), Int(port + starboard))
            }
            #expect(message.dimensions?.length == dimensions?.0 && message.dimensions?.beam == dimensions?.1)
            // A track's point: the same position to seven decimals, speed in m/s, course; only for own positions.
            let point = message.trackPoint
            if message.reportsOwnPosition, let position {
                #expect(point?.latitude == (position.0 * 1e7).rounded() / 1e7, "type \(type)")
                #expect(point?.longitude == (position.1 * 1e7).rounded() / 1e7, "type \(type)")
                #expect(point?.speed == (moving ? number("speed") : nil).map { $0 * 1852 / 3600 }, "type \(type)")
                #expect(point?.course == (moving ? number("course") : nil), "type \(type)")
            } else {
                #expect(point == nil, "type \(type)")
            }
        }
    }

    /// The messages of `count` messages of the built-in traffic, each handed out by the decoder where it was made.
    static func generatedMessages(_ count: Int) -> [AISMessage] {
        let bytes = AISTraffic().sentences(messages: count)
        var framer = Framer()
        var decoder = AISDecoder()
        var messages: [AISMessage] = []
        bytes.withUnsafeBytes { buffer in
            framer.feed(buffer) { event in
                guard case .sentence(let sentence) = event else { return }
                try? decoder.add(sentence) { messages.append(copy $0) }
            }
        }
        return messages
    }

    @Test("the accessors give what the tables give, on the real logs and generated traffic")
    func accessors() throws {
        if Locations.gnssCorpus != nil {
            for log in AISCorpusTests.logs { Self.checkAccessors(try AISCorpusTests.messages(log)) }
        }
        let messages = Self.generatedMessages(2_000)
        #expect(messages.count > 1_900)
        Self.checkAccessors(messages)
    }

    @Test("every report of the built-in traffic equals the tables' values")
    func generatedTraffic() throws {
        let messages = Self.generatedMessages(5_000)
        let reported = Self.check(messages)
        #expect(Set(reported.keys) == [1, 2, 3, 4, 5, 18, 21, 24])
        #expect(reported.values.reduce(0, +) == messages.count)
    }

    @Test("every report of the real logs equals the tables' values", .enabled(if: Locations.gnssCorpus != nil))
    func realLogs() throws {
        var types: Set<Int> = []
        for log in AISCorpusTests.logs { types.formUnion(Self.check(try AISCorpusTests.messages(log)).keys) }
        #expect(types == [1, 2, 3, 4, 5, 18, 19, 21, 24, 27])  // the logs have no type 11
    }

    /// Checks that each report read straight from a message (``AISMessage/positionReport`` and the like, and the one
    /// ``AISMessage/readReport(position:baseStation:staticAndVoyage:classBPosition:extendedClassB:aidToNavigation:staticData:longRange:other:)``
    /// lends) is the one ``AISMessage/report`` holds, and that the other types' are `nil`; returns how many messages
    /// had one.
    static func checkTypedReports(_ messages: [AISMessage]) -> Int {
        var typed = 0
        for message in messages {
            let report = message.report
            let read: [AISReport?] = [
                message.positionReport.map { .position($0) },
                message.baseStationReport.map { .baseStation($0) },
                message.staticAndVoyageData.map { .staticAndVoyage($0) },
                message.classBPositionReport.map { .classBPosition($0) },
                message.extendedClassBReport.map { .extendedClassB($0) },
                message.aidToNavigation.map { .aidToNavigation($0) },
                message.staticDataReport.map { .staticData($0) },
                message.longRangeReport.map { .longRange($0) },
            ]
            var lent: [AISReport] = []
            var other: Int?
            message.readReport(
                position: { lent.append(.position(copy $0)) },
                baseStation: { lent.append(.baseStation(copy $0)) },
                staticAndVoyage: { lent.append(.staticAndVoyage(copy $0)) },
                classBPosition: { lent.append(.classBPosition(copy $0)) },
                extendedClassB: { lent.append(.extendedClassB(copy $0)) },
                aidToNavigation: { lent.append(.aidToNavigation(copy $0)) },
                staticData: { lent.append(.staticData(copy $0)) },
                longRange: { lent.append(.longRange(copy $0)) },
                other: { other = $0 })
            let found = read.compactMap { $0 }
            if case .other(let type) = report {
                #expect(lent.isEmpty && other == type, "type \(message.type)")
            } else {
                #expect(lent == [report] && other == nil, "type \(message.type)")
            }
            if case .other = report {
                #expect(found.isEmpty, "type \(message.type)")
            } else {
                #expect(found == [report], "type \(message.type)")
                typed += 1
            }
        }
        return typed
    }

    @Test("each report read straight from a message is the one the enum holds, on the real logs and generated traffic")
    func typedReports() throws {
        if Locations.gnssCorpus != nil {
            for log in AISCorpusTests.logs { _ = Self.checkTypedReports(try AISCorpusTests.messages(log)) }
        }
        let messages = Self.generatedMessages(2_000)
        #expect(Self.checkTypedReports(messages) == messages.count)
    }

    @Test("docs/ais.md's example of readReport and a report's property: each message's speed, where it is made")
    func readReportExample() throws {
        let bytes = AISTraffic().sentences(messages: 200)
        var framer = Framer()
        var decoder = AISDecoder()
        var speeds: [Double?] = []
        var destinations = 0
        bytes.withUnsafeBytes { buffer in
            framer.feed(buffer) { event in
                guard case .sentence(let sentence) = event else { return }
                try? decoder.add(sentence) { message in
                    var speed: Double?
                    message.readReport(
                        position: { report in speed = report.speed },
                        classBPosition: { report in speed = report.speed })
                    #expect(speed == message.speedKnots || message.type == 19)
                    speeds.append(speed)
                    if let report = message.staticAndVoyageData, !message.string(report.destination).isEmpty {
                        destinations += 1
                    }
                }
            }
        }
        #expect(speeds.count == decoder.counts.messages && speeds.contains { $0 != nil })
        #expect(destinations > 0)
    }

    @Test("a position report, value by value (pyais reads the same)")
    func positionReport() throws {
        let payload = try AISPayload(armored: Array("15M67FC000G?ufbE`FepT@3n00Sa".utf8))
        let message = try AISMessage(payload: payload)
        guard case .position(let report) = message.report else {
            Issue.record("type \(message.type) has no position report")
            return
        }
        #expect(message.mmsi == 366_053_209)
        #expect(report.status == 3)
        #expect(report.turn == 0)
        #expect(report.speed == 0)
        #expect(report.accuracy == false)
        #expect(report.longitude.map { ($0 * 1e6).rounded() } == -122_341_618)
        #expect(report.latitude.map { ($0 * 1e6).rounded() } == 37_802_118)
        #expect(report.course == 2193 * 0.1)
        #expect(report.heading == 1)
        #expect(report.second == 59)
        #expect(report.maneuver == 0)
        #expect(report.raim == false)
        #expect(report.radio == 2281)
        // A track holds it to seven decimals, not as the 17 digits of its ratio.
        #expect(report.longitude?.description == "-122.34161833333333")
        #expect(message.trackPoint?.longitude.description == "-122.3416183")
        #expect(message.trackPoint?.latitude.description == "37.8021183")
    }
}
