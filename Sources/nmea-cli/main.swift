print("nmea")
