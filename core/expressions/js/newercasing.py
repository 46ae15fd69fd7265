"""The code points whose part in lowercasing a final sigma node (Unicode 17.0) sees
otherwise than Python's ``str.lower``: letters and marks encoded since Python's tables.

Data, written by scripts/newer_casing.py from node, as hexadecimal ranges ``a-b``.
"""

from typing import Final

CASED: Final = (
    "1c89-1c8a a7cb-a7cf a7d2 a7d4 a7da-a7dc 10d50-10d65 10d70-10d85 16ea0-16eb8 16ebb-16ed3 "
    "1df25-1df2a "
)
IGNORABLE: Final = (
    "897 ece 1acf-1add 1ae0-1aeb a7f1 10d4e 10d69-10d6d 10d6f 10ec5 10efa-10eff 11241 "
    "113bb-113c0 113ce 113d0 113d2 113e1-113e2 11b60 11b62-11b64 11b66 11dd9 11f00-11f01 "
    "11f36-11f3a 11f40 11f42 11f5a 13439-13440 13447-13455 1611e-16129 1612d-1612f "
    "16d40-16d42 16d6b-16d6c 16ff2-16ff3 1e030-1e06d 1e08f 1e4eb-1e4ef 1e5ee-1e5ef 1e6e3 "
    "1e6e6 1e6ee-1e6ef 1e6f5 1e6ff "
)
NEITHER: Final = "295 1171e "
