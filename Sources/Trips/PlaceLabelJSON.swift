import JSON

/// Place labels as JSON: what `/api/places` answers (the page's and the fleet page's base map).
///
///     {"zoom":10,"places":[{"name":"Munich","lat":48.13743,"lon":11.57549,"population":1260000,"rank":1},…]}
public enum PlaceLabelJSON {
    /// `{"zoom":…,"places":[…]}`, the labels in the order the rule kept them (largest first).
    public static func document(_ labels: [Place], zoom: Double) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + labels.count * 96)
        json.beginObject()
        json.key("zoom")
        json.number(zoom, maximumDecimals: 3)
        json.key("places")
        json.beginArray()
        for label in labels {
            json.beginObject()
            json.key("name")
            json.string(label.name)
            json.key("lat")
            json.number(label.latitude, maximumDecimals: 5)
            json.key("lon")
            json.number(label.longitude, maximumDecimals: 5)
            json.key("population")
            json.number(label.population)
            json.key("rank")
            json.number(label.labelRank)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
