import Foundation
import Testing

/// `nmea parse`: one JSON object per sentence, counters, rejected lines, exit codes.
@Suite struct ParseCommandTests {
    static let log = """
        $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r
        $GPGSV,1,1,00*79\r
        garbage before $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r
        $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48\r
        $GPXYZ,1,,three*3F\r
        # a comment\r
        $GPZDA,201530.00,04,07,2002,00,00*60
        """

    @Test func printsOneTypedObjectPerAcceptedSentence() throws {
        let outcome = try Tool.run(["parse"], input: Self.log)
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                {"talker":"GP","type":"RMC","time":"12:35:19","status":"A","lat":48.11730000,"lon":11.51666667,\
                "speed_knots":22.4,"course":84.4,"date":"1994-03-23","magnetic_variation":-3.1}
                {"talker":"GP","type":"GSV","total":1,"number":1,"in_view":0,"satellites":[]}
                {"talker":"GP","type":"GGA","time":"12:35:19","lat":48.11730000,"lon":11.51666667,"quality":1,\
                "satellites":8,"hdop":0.9,"altitude":545.4,"geoid_separation":46.9}
                {"talker":"GP","type":"XYZ","fields":["1","","three"]}
                {"talker":"GP","type":"ZDA","time":"20:15:30.00","date":"2002-07-04","zone_hours":0,"zone_minutes":0}

                """)
        #expect(outcome.error == "nmea parse: 1 line rejected (1 bad checksum); -v lists them\n")
    }

    @Test func verboseListsEachRejectedLineWithItsNumber() throws {
        let outcome = try Tool.run(["parse", "-v", "-"], input: Self.log)
        #expect(outcome.status == 0)
        #expect(
            outcome.error.hasPrefix(
                "<stdin>:4: checksum mismatch: calculated 47, found 48: $GPGGA,123519,4807.038,N,01131.000,E,1,08"))
    }

    @Test func statsCountEveryOutcome() throws {
        let outcome = try Tool.run(["parse", "--stats"], input: Self.log)
        let rows = Dictionary(
            uniqueKeysWithValues: outcome.error.split(separator: "\n").map { line in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                return (parts.dropLast().joined(separator: " "), Int(parts.last!)!)
            })
        #expect(rows["sentences"] == 5)
        #expect(rows["RMC"] == 1 && rows["GGA"] == 1 && rows["GSV"] == 1 && rows["ZDA"] == 1)
        #expect(rows["unknown type"] == 1)
        #expect(rows["rejected"] == 1 && rows["bad checksum"] == 1)
        #expect(rows["garbage bytes"] == 15)
        #expect(rows["comment lines"] == 1)
    }

    /// Issue 12, item 10: a sentence with a bad field is printed without it, the field named in "errors"; one with
    /// nothing to decode keeps its raw fields and says why.
    @Test func badFieldsAreLeftOutAndNamed() throws {
        let input = "$GPGGA,12x519,,,,,0,,,,,,,,*20\n$GPGGA*56\n"
        let outcome = try Tool.run(["parse"], input: input)
        #expect(outcome.status == 0)
        #expect(
            outcome.output == #"{"talker":"GP","type":"GGA","quality":0,"errors":["field 1: not a number"]}"# + "\n"
                + #"{"talker":"GP","type":"GGA","error":"too few fields: expected 1, found 0","fields":[]}"# + "\n")
        #expect(
            outcome.error
                == "nmea parse: 1 line rejected (1 undecodable); 1 sentence with a bad field (read without it); "
                + "-v lists them\n")
        let verbose = try Tool.run(["parse", "-v"], input: input)
        #expect(
            verbose.error.contains(
                "<stdin>:1: GGA: field 1: not a number (read without it): $GPGGA,12x519,,,,,0,,,,,,,,\n"))
    }

    /// Issue 16, group 4: an attitude `$PASHR`, a Trimble `$PTNL,GGK` (its message ID as `id`) and a Unicore
    /// secondary-antenna `$GNGGAH` (decoded as a GGA, typed as sent); Ashtech's `$PASHR,POS` stays an unknown type.
    @Test func proprietaryAndSecondaryAntennaSentences() throws {
        let input = """
            $PASHR,163029.000,158.09,T,-0.30,+0.31,+0.01,0.029,0.029,0.059,1,1*3B\r
            $PTNL,GGK,172814.00,071296,3723.46587704,N,12202.26957864,W,3,06,1.7,EHT-6.777,M*4B\r
            $GNGGAH,073346.00,4004.73874301,N,11614.19077585,E,1,28,0.6,64.2831,M,8.4925,M,,*35\r
            $PASHR,XMG,12,Solution valid*4A\r

            """
        let outcome = try Tool.run(["parse"], input: input)
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                {"talker":"P","type":"PASHR","time":"16:30:29.000","heading_deg":158.09,"heading_true":true,\
                "roll_deg":-0.30,"pitch_deg":0.31,"heave_m":0.01,"roll_accuracy_deg":0.029,"pitch_accuracy_deg":0.029,\
                "heading_accuracy_deg":0.059,"gnss_quality":1,"ins_status":1}
                {"talker":"P","type":"PTNL","id":"GGK","time":"17:28:14.00","date":"1996-07-12",\
                "lat":37.3910979506667,"lon":-122.0378263106667,"quality":3,"satellites":6,"pdop":1.7,\
                "altitude_ellipsoid":-6.777}
                {"talker":"GN","type":"GGAH","time":"07:33:46.00","lat":40.0789790501667,"lon":116.2365129308333,\
                "quality":1,"satellites":28,"hdop":0.6,"altitude":64.2831,"geoid_separation":8.4925}
                {"talker":"P","type":"PASHR","fields":["XMG","12","Solution valid"]}

                """)
        #expect(outcome.error.isEmpty)
    }

    /// Issue 25: Trimble's `$PTNL,BPQ`, `$PTNL,PJT` and DGPS status (`$PTNLDG`, and the `$PTNL,DG` some logs write,
    /// with its `id`), Ashtech's `$PASHR,LTN`, and a GSV whose SNRs keep the decimals the receiver sent.
    @Test func issue25SentencesAndDecimalSNRs() throws {
        let input = """
            $PTNL,BPQ,224445.06,021207,3723.09383914,N,12200.32620132,W,EHT-5.923,M,5*60\r
            $PTNL,PJT,NAD83(Conus),California Zone 4 0404,*5D\r
            $PTNLDG,44.0,33.0,287.0,100,0,4,1,0,,,*3E\r
            $PTNL,DG,124.0,10.5,1557855.0,1200,2,4,0,3,,,*10\r
            $PASHR,LTN,29*05\r
            $GPGSV,1,1,03,05,40,083,24.5,12,07,344,39.25,14,22,228,*74\r
            $PTNL,PJT,,*64\r
            $PTNLDG,44.0,33.0,287.0,100,0,4,2,0,,,*3D\r

            """
        let outcome = try Tool.run(["parse"], input: input)
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                {"talker":"P","type":"PTNL","id":"BPQ","time":"22:44:45.06","date":"2007-12-02",\
                "lat":37.3848973190000,"lon":-122.0054366886667,"altitude_ellipsoid":-5.923,"quality":5}
                {"talker":"P","type":"PTNL","id":"PJT","coordinate_system":"NAD83(Conus)",\
                "projection":"California Zone 4 0404"}
                {"talker":"P","type":"PTNLDG","strength":44.0,"snr_db":33.0,"frequency_khz":287.0,"bit_rate":100,\
                "channel":0,"tracking_status":4,"corrections_used":true,"tracking_performance":0}
                {"talker":"P","type":"PTNL","id":"DG","strength":124.0,"snr_db":10.5,"frequency_khz":1557855.0,\
                "bit_rate":1200,"channel":2,"tracking_status":4,"corrections_used":false,"tracking_performance":3}
                {"talker":"P","type":"PASHR","id":"LTN","latency_ms":29}
                {"talker":"GP","type":"GSV","total":1,"number":1,"in_view":3,"satellites":[\
                {"prn":5,"elevation":40,"azimuth":83,"snr":24.5},{"prn":12,"elevation":7,"azimuth":344,"snr":39.25},\
                {"prn":14,"elevation":22,"azimuth":228}]}
                {"talker":"P","type":"PTNL","id":"PJT"}
                {"talker":"P","type":"PTNLDG","strength":44.0,"snr_db":33.0,"frequency_khz":287.0,"bit_rate":100,\
                "channel":0,"tracking_status":4,"tracking_performance":0,"errors":["field 7: out of range"]}

                """)
        #expect(outcome.error.contains("1 sentence with a bad field"))
    }

    /// Issue 12, item 10: an unknown proprietary address longer than eight letters is printed whole.
    @Test func longProprietaryAddressIsPrintedWhole() throws {
        let outcome = try Tool.run(["parse"], input: "$PINVMSLOPE,1,2*0A\n")
        #expect(outcome.output == #"{"talker":"P","type":"PINVMSLOPE","fields":["1","2"]}"# + "\n")
    }

    @Test func missingChecksumsAreAcceptedOnRequest() throws {
        let line = "$GPGLL,4916.45,N,12311.12,W,225444,A\n"
        let strict = try Tool.run(["parse"], input: line)
        #expect(strict.output == "")
        #expect(strict.error.contains("1 missing checksum"))
        #expect(strict.error.contains("--allow-missing-checksum accepts sentences without one"))
        let lenient = try Tool.run(["parse", "--allow-missing-checksum"], input: line)
        #expect(lenient.output.hasPrefix(#"{"talker":"GP","type":"GLL","lat":49.2741667,"lon":-123.1853333,"#))
        #expect(lenient.error == "")
    }

    @Test func everyInputIsAdmittedBeforeAnythingIsPrinted() throws {
        let directory = Tool.temporaryDirectory()
        let good = directory.appendingPathComponent("good.nmea")
        try Data("$GPGSV,1,1,00*79\n".utf8).write(to: good)
        #expect(
            try Tool.run(["parse", good.path]).output
                == #"{"talker":"GP","type":"GSV","total":1,"number":1,"in_view":0,"satellites":[]}"# + "\n")
        // Issue 25, item 1: a missing file or a directory among the inputs stops the command before it prints.
        let outcome = try Tool.run(["parse", directory.path + "/missing.nmea", good.path, directory.path])
        #expect(outcome.status == 1)
        #expect(outcome.output == "")
        #expect(
            outcome.error == "Error: cannot open '\(directory.path)/missing.nmea': No such file or directory\n"
                + "Error: '\(directory.path)' is a directory; give the log files in it ('\(directory.path)/*')\n"
                + "2 of 3 inputs cannot be read: nothing was read and no output was written\n")
    }

    /// Issue 16, group 3: marine instruments and radar targets with their named fields and units; XDR's
    /// quadruplets as a list.
    @Test func marineInstrumentsAndTargetsHaveNamedFields() throws {
        let input = """
            $WIMWV,320.0,R,15.2,N,A*14
            $YXXDR,C,21.4,C,AIRTEMP,P,1.013,B,BARO,H,65.2,P,HUMIDITY*3F
            $RATTM,11,11.4,13.6,T,7.0,20.0,T,0.5,0.9,N,TGT11,T,,100021.00,A*7B

            """
        let outcome = try Tool.run(["parse"], input: input)
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                {"talker":"WI","type":"MWV","wind_angle_deg":320.0,"reference":"R","wind_speed_knots":15.2,"valid":true}
                {"talker":"YX","type":"XDR","measurements":[{"type":"C","value":21.4,"unit":"C","name":"AIRTEMP"},\
                {"type":"P","value":1.013,"unit":"B","name":"BARO"},{"type":"H","value":65.2,"unit":"P","name":"HUMIDITY"}]}
                {"talker":"RA","type":"TTM","target":11,"distance_nm":11.4,"bearing_deg":13.6,"bearing_reference":"T",\
                "speed_knots":7.0,"course_deg":20.0,"course_reference":"T","cpa_distance_nm":0.5,"tcpa_min":0.9,\
                "name":"TGT11","status":"T","time":"10:00:21.00","acquisition":"A"}

                """)
        #expect(outcome.error == "")
    }

    @Test func aBadOptionValueIsAUsageError() throws {
        let outcome = try Tool.run(["parse", "--max-length", "eight"])
        #expect(outcome.status == 64)
        #expect(
            outcome.error.hasPrefix("Error: The value 'eight' is invalid for '--max-length <n>'\nUsage: nmea parse"))
    }
}

/// The help, version and usage-error manners every subcommand shares (as swift-argument-parser does them).
@Suite struct CommandLineMannersTests {
    @Test func helpIsTheSameForEveryWayOfAskingAndGoesToStandardOutput() throws {
        let viaFlag = try Tool.run(["parse", "--help"])
        let viaShort = try Tool.run(["parse", "-h"])
        let viaHelp = try Tool.run(["help", "parse"])
        #expect(viaFlag.status == 0 && viaShort.status == 0 && viaHelp.status == 0)
        #expect(viaFlag.output == viaShort.output && viaFlag.output == viaHelp.output)
        #expect(viaFlag.output.hasPrefix("OVERVIEW: Decode NMEA sentences to JSON Lines.\n"))
        #expect(viaFlag.output.contains("\nUSAGE: nmea parse [<files> ...] [--stats]"))
        #expect(viaFlag.output.contains("\nARGUMENTS:\n  <files>"))
        #expect(viaFlag.output.contains("\nOPTIONS:\n"))
        #expect(viaFlag.output.contains("  -h, --help              Show help information.\n"))
        #expect(viaFlag.error == "")
    }

    @Test func everySubcommandHasHelp() throws {
        let root = try Tool.run(["--help"])
        #expect(root.status == 0)
        #expect(root.output.contains("SUBCOMMANDS:"))
        let names = root.output.components(separatedBy: "SUBCOMMANDS:\n")[1].split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.contains("See 'nmea help") }
            .map { String($0.split(separator: " ")[0]) }
        #expect(names.contains("parse") && names.contains("convert") && names.contains("bench"))
        for name in names {
            let help = try Tool.run([name, "--help"])
            #expect(help.status == 0, "nmea \(name) --help")
            #expect(help.output.hasPrefix("OVERVIEW: "), "nmea \(name) --help")
            #expect(help.output.contains("USAGE: nmea \(name)"), "nmea \(name) --help")
        }
    }

    @Test func versionPrintsTheVersion() throws {
        let outcome = try Tool.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.output == "0.1.0\n")
    }

    /// libpq and libmosquitto, and OpenSSL, Kerberos, LDAP and GnuTLS under them, are loaded by the fleet commands
    /// when they connect, not by every command at its start (which then takes about half the time): the dynamic
    /// loader's list of what the program needs to start has none of them.
    @Test func theFleetLibrariesAreNotLoadedAtStart() throws {
        let outcome = try ToolSupport.run(
            ToolSupport.nmea, ["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(outcome.status == 0)
        #expect(outcome.text.contains("libswiftCore.so"), "the loader's list: \(outcome.text)")
        for library in ["libpq.so", "libmosquitto.so", "libssl.so", "libkrb5.so", "libgnutls.so"] {
            #expect(!outcome.text.contains(library), "\(library) is loaded at start")
        }
    }

    @Test func unknownOptionsAndSubcommandsAreUsageErrors() throws {
        let option = try Tool.run(["parse", "--foo"])
        #expect(option.status == 64)
        #expect(option.output == "")
        #expect(option.error.hasPrefix("Error: Unknown option '--foo'\nUsage: nmea parse "))
        #expect(option.error.hasSuffix("\n  See 'nmea parse --help' for more information.\n"))
        let subcommand = try Tool.run(["frobnicate"])
        #expect(subcommand.status == 64)
        #expect(subcommand.error.hasPrefix("Error: Unknown subcommand 'frobnicate'\nUsage: nmea <subcommand>\n"))
        let missing = try Tool.run(["bench", "--iterations"])
        #expect(missing.status == 64)
        #expect(missing.error.hasPrefix("Error: Missing value for '--iterations <n>'"))
    }
}

/// `nmea simulate` and `nmea bench`, end to end.
@Suite struct SimulateAndBenchTests {
    @Test func simulateIsDeterministicAndParses() throws {
        let first = try Tool.run(["simulate", "--duration", "3", "--profile", "rmc-gga"])
        let second = try Tool.run(["simulate", "--duration", "3", "--profile", "rmc-gga"])
        #expect(first.status == 0)
        #expect(first.output == second.output)
        #expect(first.output.hasPrefix("$GPRMC,080000.00,A,4808.24400,N,01134.53000,E,24.298,45.00,301126,,,A*"))
        #expect(first.output.split(whereSeparator: \.isNewline).count == 6)
        let parsed = try Tool.run(["parse", "--fixes"], input: first.output)
        #expect(parsed.output.split(whereSeparator: \.isNewline).count == 3)
    }

    @Test func faultsAreCountedAsRejectedLines() throws {
        let damaged = try Tool.run(["simulate", "--duration", "60", "--faults", "5", "--seed", "3"])
        let parsed = try Tool.run(["parse", "--stats"], input: damaged.output)
        #expect(parsed.status == 0)
        #expect(parsed.error.contains("rejected"))
        #expect(!parsed.error.contains("rejected              0\n"))
    }

    @Test func benchPrintsOneJSONObject() throws {
        let outcome = try Tool.run(["bench", "--sentences", "3200", "--iterations", "1", "--json"])
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(object["sentences"] as? Int == 3200)
        #expect((object["sentences_per_second"] as? Double ?? 0) > 0)
        #expect((object["bytes_per_second"] as? Double ?? 0) > 0)
        #expect(object["seconds"] != nil)
        // The C checksum + split loop found every sentence the framer did, and the ratio is typed decoding's over it
        // (one pass: the median of the passes' ratios is that pass's).
        let cLoop = try #require(object["c_checksum_split"] as? [String: Any])
        #expect(cLoop["sentences"] as? Int == 3200)
        let cRate = try #require(cLoop["sentences_per_second"] as? Double)
        let ratio = try #require(object["typed_decode_over_c_loop"] as? Double)
        let typedRate = try #require(object["sentences_per_second"] as? Double)
        #expect(abs(ratio - typedRate / cRate) <= 0.001 + 0.01 * ratio, "\(ratio) against \(typedRate / cRate)")
    }
}
