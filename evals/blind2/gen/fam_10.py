from common import R, Q, hdr, colorize
F = "byte-order-mismatch"

R("r-boe-1", "pngmeta", F, hdr("/home/ci/pngmeta", 8) + """
tests/test_chunks.py F.......                                            [100%]

=================================== FAILURES ===================================
__________________________ test_reads_ihdr_dimensions __________________________

    def test_reads_ihdr_dimensions():
>       meta = read_meta(FIXTURES / "red_4x2.png")

tests/test_chunks.py:11: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/pngmeta/reader.py:38: in read_meta
    for ctype, body in iter_chunks(fh):
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

fh = <_io.BufferedReader name='/home/ci/pngmeta/tests/fixtures/red_4x2.png'>

    def iter_chunks(fh):
        fh.read(8)  # signature
        while True:
            head = fh.read(8)
            if len(head) < 8:
                return
            (length,) = struct.unpack("<I", head[:4])
            if length > MAX_CHUNK:
>               raise ValueError(f"chunk length {length} exceeds limit")
E               ValueError: chunk length 218103808 exceeds limit

src/pngmeta/reader.py:21: ValueError
=========================== short test summary info ============================
FAILED tests/test_chunks.py::test_reads_ihdr_dimensions - ValueError: chunk length 218103808 exceeds limit
========================= 1 failed, 7 passed in 0.03s ==========================
""", "ValueError", ["src/pngmeta/reader.py"],
"iter_chunks() unpacked the 4-byte chunk length with '<I', but PNG stores all integers in network (big-endian) order, so IHDR's length 13 was read as 218103808. Switched the chunk header and IHDR unpacking to '>I'.",
"pytest passed with exit code 0 (8 passed)",
"""--- a/src/pngmeta/reader.py
+++ b/src/pngmeta/reader.py
@@ -17,7 +17,7 @@ def iter_chunks(fh):
         head = fh.read(8)
         if len(head) < 8:
             return
-        (length,) = struct.unpack("<I", head[:4])
+        (length,) = struct.unpack(">I", head[:4])
         if length > MAX_CHUNK:
             raise ValueError(f"chunk length {length} exceeds limit")
         ctype = head[4:].decode("ascii")
@@ -34,7 +34,7 @@ def iter_chunks(fh):
 def parse_ihdr(body):
-    width, height = struct.unpack("<II", body[:8])
+    width, height = struct.unpack(">II", body[:8])
     return width, height
""")

R("r-boe-2", "modbuslink", F, hdr("/srv/modbuslink", 15, py="3.10.12", pytest="7.4.3", pluggy="1.3.0") + """
tests/test_registers.py .....F.........                                  [100%]

=================================== FAILURES ===================================
__________________________ test_decode_holding_register ________________________

    def test_decode_holding_register():
        frame = bytes([0x01, 0x03, 0x02, 0x01, 0x02])
>       assert decode_read_response(frame).values == [258]
E       assert [513] == [258]
E         At index 0 diff: 513 != 258
E         Use -v to get more diff

tests/test_registers.py:40: AssertionError
=========================== short test summary info ============================
FAILED tests/test_registers.py::test_decode_holding_register - assert [513] == [258]
========================= 1 failed, 14 passed in 0.02s =========================
""", "AssertionError", ["src/modbuslink/pdu.py"],
"Register words were decoded with int.from_bytes(chunk, 'little'), while Modbus transmits 16-bit registers most significant byte first. Use byteorder='big' for register values (the CRC stays little-endian).",
"pytest passed with exit code 0 (15 passed)",
"""--- a/src/modbuslink/pdu.py
+++ b/src/modbuslink/pdu.py
@@ -44,7 +44,7 @@ def decode_read_response(frame):
     payload = frame[3:3 + count]
     values = [
-        int.from_bytes(payload[i:i + 2], "little")
+        int.from_bytes(payload[i:i + 2], "big")
         for i in range(0, count, 2)
     ]
     return ReadResponse(unit=frame[0], function=frame[1], values=values)
""")

R("r-boe-3", "tracepcap", F, """....F.
======================================================================
FAIL: test_packet_count_in_sample (tests.test_reader.PcapReaderTests.test_packet_count_in_sample)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/dee/tracepcap/tests/test_reader.py", line 51, in test_packet_count_in_sample
    self.assertEqual(len(packets), 3)
AssertionError: 0 != 3

----------------------------------------------------------------------
Ran 6 tests in 0.004s

FAILED (failures=1)
""", "AssertionError", ["src/tracepcap/reader.py"],
"The reader always decoded the pcap record headers as big-endian, but this capture was written on a little-endian host (magic a1b2c3d4 stored as d4 c3 b2 a1), so the first incl_len looked larger than the file and the loop stopped with no packets. Detect the byte order from the magic number and use that prefix for every struct.unpack.",
"python -m unittest passed (OK, 6 tests)",
"""--- a/src/tracepcap/reader.py
+++ b/src/tracepcap/reader.py
@@ -10,14 +10,20 @@ RECORD_HDR = "IIII"
 
 def read_packets(fh):
     ghdr = fh.read(24)
+    magic = ghdr[:4]
+    if magic == b"\\xd4\\xc3\\xb2\\xa1":
+        order = "<"
+    elif magic == b"\\xa1\\xb2\\xc3\\xd4":
+        order = ">"
+    else:
+        raise ValueError(f"not a pcap file: magic {magic.hex()}")
     packets = []
     while True:
         rh = fh.read(16)
         if len(rh) < 16:
             break
-        ts_sec, ts_usec, incl_len, orig_len = struct.unpack(">" + RECORD_HDR, rh)
+        ts_sec, ts_usec, incl_len, orig_len = struct.unpack(order + RECORD_HDR, rh)
         data = fh.read(incl_len)
         if len(data) < incl_len:
             break
""")

Q("q-boe-1", "wavinfo", F, hdr("/home/dev/wavinfo", 6) + """
tests/test_header.py .F....                                              [100%]

=================================== FAILURES ===================================
___________________________ test_sample_rate_of_fixture ________________________

    def test_sample_rate_of_fixture():
        info = probe("tests/fixtures/beep_44k_mono.wav")
>       assert info.sample_rate == 44100
E       assert 1152122880 == 44100
E        +  where 1152122880 = WavInfo(channels=256, sample_rate=1152122880, bits=4096, frames=0).sample_rate

tests/test_header.py:14: AssertionError
=========================== short test summary info ============================
FAILED tests/test_header.py::test_sample_rate_of_fixture - assert 1152122880 == 44100
========================= 1 failed, 5 passed in 0.01s ==========================
""", "AssertionError")

Q("q-boe-2", "netproto", F, """..E.....
======================================================================
ERROR: test_roundtrip_1k_payload (tests.test_framing.FramingTests.test_roundtrip_1k_payload)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/work/netproto/tests/test_framing.py", line 33, in test_roundtrip_1k_payload
    msg = read_frame(io.BytesIO(wire))
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/work/netproto/src/netproto/framing.py", line 27, in read_frame
    raise FrameError(f"declared length {length} exceeds max {MAX_FRAME}")
netproto.framing.FrameError: declared length 262144 exceeds max 65536

----------------------------------------------------------------------
Ran 8 tests in 0.002s

FAILED (errors=1)
""", "FrameError")

Q("q-boe-3", "bmpread", F, hdr("/home/ci/bmpread", 9, verbose=True) + """
tests/test_dims.py::test_dimensions[tiny-2x3] FAILED                     [ 11%]
tests/test_dims.py::test_dimensions[square-16x16] FAILED                 [ 22%]
tests/test_dims.py::test_pixel_format PASSED                             [ 33%]
tests/test_dims.py::test_bad_magic PASSED                                [ 44%]
tests/test_dims.py::test_truncated PASSED                                [ 55%]
tests/test_pixels.py::test_first_pixel PASSED                            [ 66%]
tests/test_pixels.py::test_row_padding PASSED                            [ 77%]
tests/test_pixels.py::test_bottom_up PASSED                              [ 88%]
tests/test_pixels.py::test_palette PASSED                                [100%]

=================================== FAILURES ===================================
__________________________ test_dimensions[tiny-2x3] ___________________________

name = 'tiny', size = (2, 3)

    @pytest.mark.parametrize("name,size", [("tiny", (2, 3)), ("square", (16, 16))],
                             ids=["tiny-2x3", "square-16x16"])
    def test_dimensions(name, size):
>       assert read_bmp(DATA / f"{name}.bmp").size == size
E       assert (33554432, 50331648) == (2, 3)
E         At index 0 diff: 33554432 != 2
E         Use -v to get more diff

tests/test_dims.py:12: AssertionError
________________________ test_dimensions[square-16x16] _________________________

name = 'square', size = (16, 16)

    @pytest.mark.parametrize("name,size", [("tiny", (2, 3)), ("square", (16, 16))],
                             ids=["tiny-2x3", "square-16x16"])
    def test_dimensions(name, size):
>       assert read_bmp(DATA / f"{name}.bmp").size == size
E       assert (268435456, 268435456) == (16, 16)
E         At index 0 diff: 268435456 != 16
E         Use -v to get more diff

tests/test_dims.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_dims.py::test_dimensions[tiny-2x3] - assert (33554432, 50331648) == (2, 3)
FAILED tests/test_dims.py::test_dimensions[square-16x16] - assert (268435456, 268435456) == (16, 16)
========================= 2 failed, 7 passed in 0.03s ==========================
""", "AssertionError")

Q("q-boe-4", "crcframe", F, colorize(hdr("/home/ci/crcframe", 10) + """
tests/test_verify.py ...F......                                          [100%]

=================================== FAILURES ===================================
_______________________ test_verify_frame_from_firmware ________________________

    def test_verify_frame_from_firmware():
        raw = bytes.fromhex("0a0b0c0d" "1c2b8a9f")
>       assert verify(raw) == b"\\x0a\\x0b\\x0c\\x0d"

tests/test_verify.py:27: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

raw = b'\\n\\x0b\\x0c\\r\\x1c+\\x8a\\x9f'

    def verify(raw):
        body, trailer = raw[:-4], raw[-4:]
        got = int.from_bytes(trailer, "big")
        want = zlib.crc32(body)
        if got != want:
>           raise ChecksumError(f"crc mismatch: got {got:#010x} expected {want:#010x}")
E           crcframe.errors.ChecksumError: crc mismatch: got 0x1c2b8a9f expected 0x9f8a2b1c

src/crcframe/verify.py:15: ChecksumError
=========================== short test summary info ============================
FAILED tests/test_verify.py::test_verify_frame_from_firmware - crcframe.errors.ChecksumError: crc mismatch: got 0x1c2b8a9f expected 0x9f8a2b1c
========================= 1 failed, 9 passed in 0.02s ==========================
"""), "ChecksumError")
