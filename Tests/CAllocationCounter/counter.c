void nmea_allocation_counter_placeholder(void) {}
