// The registry of decoded sentence types: one line per type, `registry: KIND TYPE`, in the order of
// `SentenceKind`'s cases (the order of `DecoderStatistics` and of `nmea parse --stats`).
//
// Adding a type is its file in this directory (field diagram, sample, `address`, one decoding `init`,
// `describe(to:)`, and a `merge(into:)` when it carries fix data) and its line here. `scripts/generate-registry`
// then writes, from this list alone, `SentenceKind`'s cases and each type's `kind`, the dispatch by kind
// (`SentenceKind+Dispatch.swift`), the `ParsedSentence` cases and visiting, and the addresses of `Fuzz/nmea.dict`;
// `RegistryTests` checks that those files are what it writes. Nothing else names a type.
//
// registry: rmc RMC
// registry: gga GGA
// registry: gsa GSA
// registry: gsv GSV
// registry: gll GLL
// registry: vtg VTG
// registry: zda ZDA
// registry: gst GST
// registry: gns GNS
// registry: gbs GBS
// registry: grs GRS
// registry: txt TXT
// registry: dtm DTM
// registry: hdt HDT
// registry: ths THS
// registry: pubxPosition PUBXPosition
// registry: pubxSatellites PUBXSatellites
// registry: pubxTime PUBXTime
// registry: pgrme PGRME
// registry: pgrmz PGRMZ
// registry: pgrmm PGRMM
// registry: hdg HDG
// registry: hdm HDM
// registry: rot ROT
// registry: dpt DPT
// registry: dbt DBT
// registry: dbs DBS
// registry: dbk DBK
// registry: wpl WPL
// registry: rte RTE
// registry: rmb RMB
// registry: bwc BWC
// registry: bwr BWR
// registry: bww BWW
// registry: bod BOD
// registry: apb APB
// registry: xte XTE
// registry: aam AAM
// registry: mwv MWV
// registry: mwd MWD
// registry: vwr VWR
// registry: vwt VWT
// registry: vhw VHW
// registry: vbw VBW
// registry: vlw VLW
// registry: vpw VPW
// registry: mtw MTW
// registry: mta MTA
// registry: mda MDA
// registry: xdr XDR
// registry: rpm RPM
// registry: rsa RSA
// registry: alr ALR
// registry: alf ALF
// registry: hbt HBT
// registry: ttm TTM
// registry: tll TLL
// registry: ptnlGGK PTNLGGK
// registry: ptnlAVR PTNLAVR
// registry: ptnlPJK PTNLPJK
// registry: ptnlVGK PTNLVGK
// registry: ptnlVHD PTNLVHD
// registry: ptnlBPQ PTNLBPQ
// registry: ptnlPJT PTNLPJT
// registry: ptnlDG PTNLDG
// registry: pashr PASHR
// registry: pashrLTN PASHRLTN
// registry: pfecAttitude PFECAttitude
// registry: pfecHeave PFECHeave
// registry: prdid PRDID
// registry: pgrmt PGRMT
// registry: pgrmo PGRMO
// registry: pgrmw PGRMW
// registry: pklds PKLDS
// registry: pklsh PKLSH
// registry: pknds PKNDS
// registry: pknsh PKNSH
// registry: pkwdwpl PKWDWPL
// registry: pmtk001 PMTK001
// registry: pmtk010 PMTK010
// registry: ggah SecondaryAntenna<GGA>
// registry: gllh SecondaryAntenna<GLL>
// registry: gnsh SecondaryAntenna<GNS>
// registry: gsth SecondaryAntenna<GST>
// registry: gsah SecondaryAntenna<GSA>
// registry: gsvh SecondaryAntenna<GSV>
// registry: rmch SecondaryAntenna<RMC>
// registry: vtgh SecondaryAntenna<VTG>
// registry: grsh SecondaryAntenna<GRS>
