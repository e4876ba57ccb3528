#include "CMosquitto.h"

#include "CShims.h"

// Each function of libmosquitto the fleet module calls: its result, name, parameters and the arguments passed on.
// NMEA_LIBRARY makes each one's trampoline, checked against mosquitto.h.
#define LIBMOSQUITTO_FUNCTIONS(F, V)                                                                                   \
    F(int, mosquitto_lib_init, (void), ())                                                                             \
    F(const char *, mosquitto_strerror, (int code), (code))                                                            \
    F(const char *, mosquitto_connack_string, (int code), (code))                                                      \
    F(struct mosquitto *, mosquitto_new, (const char *id, bool clean, void *object), (id, clean, object))             \
    V(mosquitto_destroy, (struct mosquitto * mosq), (mosq))                                                            \
    V(mosquitto_user_data_set, (struct mosquitto * mosq, void *object), (mosq, object))                               \
    F(int, mosquitto_threaded_set, (struct mosquitto * mosq, bool threaded), (mosq, threaded))                        \
    F(int, mosquitto_int_option, (struct mosquitto * mosq, enum mosq_opt_t option, int value), (mosq, option, value)) \
    F(int, mosquitto_username_pw_set, (struct mosquitto * mosq, const char *username, const char *password),          \
      (mosq, username, password))                                                                                      \
    F(int, mosquitto_tls_set,                                                                                          \
      (struct mosquitto * mosq, const char *cafile, const char *capath, const char *certfile, const char *keyfile,    \
       int (*password)(char *buffer, int size, int rwflag, void *userdata)),                                           \
      (mosq, cafile, capath, certfile, keyfile, password))                                                             \
    V(mosquitto_connect_callback_set, (struct mosquitto * mosq, void (*callback)(struct mosquitto *, void *, int)),    \
      (mosq, callback))                                                                                                \
    V(mosquitto_log_callback_set,                                                                                      \
      (struct mosquitto * mosq, void (*callback)(struct mosquitto *, void *, int, const char *)), (mosq, callback))   \
    V(mosquitto_message_callback_set,                                                                                  \
      (struct mosquitto * mosq, void (*callback)(struct mosquitto *, void *, const struct mosquitto_message *)),     \
      (mosq, callback))                                                                                                \
    V(mosquitto_publish_callback_set, (struct mosquitto * mosq, void (*callback)(struct mosquitto *, void *, int)),    \
      (mosq, callback))                                                                                                \
    F(int, mosquitto_connect_async, (struct mosquitto * mosq, const char *host, int port, int keepalive),             \
      (mosq, host, port, keepalive))                                                                                   \
    F(int, mosquitto_disconnect, (struct mosquitto * mosq), (mosq))                                                   \
    F(int, mosquitto_subscribe, (struct mosquitto * mosq, int *mid, const char *pattern, int qos),                    \
      (mosq, mid, pattern, qos))                                                                                       \
    F(int, mosquitto_publish,                                                                                          \
      (struct mosquitto * mosq, int *mid, const char *topic, int length, const void *payload, int qos, bool retain),  \
      (mosq, mid, topic, length, payload, qos, retain))                                                                \
    F(int, mosquitto_socket, (struct mosquitto * mosq), (mosq))                                                       \
    F(bool, mosquitto_want_write, (struct mosquitto * mosq), (mosq))                                                  \
    F(int, mosquitto_loop_read, (struct mosquitto * mosq, int packets), (mosq, packets))                             \
    F(int, mosquitto_loop_write, (struct mosquitto * mosq, int packets), (mosq, packets))                            \
    F(int, mosquitto_loop_misc, (struct mosquitto * mosq), (mosq))                                                    \
    F(int, mosquitto_loop_start, (struct mosquitto * mosq), (mosq))                                                   \
    F(int, mosquitto_loop_forever, (struct mosquitto * mosq, int timeout, int packets), (mosq, timeout, packets))

NMEA_LIBRARY(LIBMOSQUITTO_FUNCTIONS, nmea_libmosquitto_load, "libmosquitto.so.1",
             "the MQTT client library libmosquitto", "install it (Debian: apt install libmosquitto1)")
