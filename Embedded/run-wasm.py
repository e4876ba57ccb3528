"""Runs the wasm32 firmware (scripts/embedded wasm) in wasmtime: python run-wasm.py FIRMWARE.wasm INPUT.

The host gives the firmware its input (host.input_size, host.input_read) and prints what it writes (host.write); the
firmware's `main` does the rest."""
import sys

import wasmtime

firmware, input_path = sys.argv[1], sys.argv[2]
data = open(input_path, "rb").read()
engine = wasmtime.Engine()
store = wasmtime.Store(engine)
module = wasmtime.Module.from_file(engine, firmware)
linker = wasmtime.Linker(engine)
memory = None
out = sys.stdout.buffer


def input_size():
    return len(data)


def input_read(address):
    memory.write(store, data, address)


def write(address, count):
    out.write(memory.read(store, address, address + count))


i32 = wasmtime.ValType.i32()
linker.define_func("host", "input_size", wasmtime.FuncType([], [i32]), input_size)
linker.define_func("host", "input_read", wasmtime.FuncType([i32], []), input_read)
linker.define_func("host", "write", wasmtime.FuncType([i32, i32], []), write)
instance = linker.instantiate(store, module)
memory = instance.exports(store)["memory"]
instance.exports(store)["__main_argc_argv"](store, 0, 0)  # C and Swift name `main` so in wasm32
out.flush()
