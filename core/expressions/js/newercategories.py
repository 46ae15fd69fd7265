"""The General_Category node (Unicode 17.0) gives the code points where Python's
``unicodedata.category`` differs: those encoded since Python's tables, and the few
whose category changed.

Data, written by scripts/newer_categories.py from node, as hexadecimal ranges ``a-b``.
"""

from typing import Final

CATEGORIES: Final = {
    "Lu": "1c89 a7cb-a7cc a7ce a7d2 a7d4 a7da a7dc 10d50-10d65 16ea0-16eb8",
    "Ll": "1c8a a7cd a7cf a7db 10d70-10d85 16ebb-16ed3 1df25-1df2a",
    "Lm": (
        "a7f1 10d4e 10d6f 10ec5 11dd9 16d40-16d42 16d6b-16d6c 16ff2-16ff3 1e030-1e06d 1e4eb 1e6ff "
    ),
    "Lo": (
        "295 88f c5c cdc 105c0-105f3 10940-10959 10d4a-10d4d 10d4f 10ec2-10ec4 10ec6-10ec7 "
        "1123f-11240 11380-11389 1138b 1138e 11390-113b5 113b7 113d1 113d3 11bc0-11be0 "
        "11db0-11dd8 11dda-11ddb 11f02 11f04-11f10 11f12-11f33 1342f 13441-13446 13460-143fa "
        "16100-1611d 16d43-16d6a 187f8-187ff 18cff 18d09-18d1e 18d80-18df2 1b132 1b155 "
        "1e4d0-1e4ea 1e5d0-1e5ed 1e5f0 1e6c0-1e6de 1e6e0-1e6e2 1e6e4-1e6e5 1e6e7-1e6ed "
        "1e6f0-1e6f4 1e6fe 2b739-2b73f 2cea2-2cead 2ebf0-2ee5d 31350-33479 "
    ),
    "Mn": (
        "897 ece 1acf-1add 1ae0-1aeb 10d69-10d6d 10efa-10eff 11241 113bb-113c0 113ce 113d0 "
        "113d2 113e1-113e2 11b60 11b62-11b64 11b66 11f00-11f01 11f36-11f3a 11f40 11f42 11f5a "
        "13440 13447-13455 1611e-16129 1612d-1612f 1e08f 1e4ec-1e4ef 1e5ee-1e5ef 1e6e3 1e6e6 "
        "1e6ee-1e6ef 1e6f5 "
    ),
    "Mc": (
        "cf3 113b8-113ba 113c2 113c5 113c7-113ca 113cc-113cd 113cf 1171e 11b61 11b65 11b67 "
        "11f03 11f34-11f35 11f3e-11f3f 11f41 1612a-1612c "
    ),
    "Nd": (
        "10d40-10d49 116d0-116e3 11bf0-11bf9 11de0-11de9 11f50-11f59 16130-16139 16d70-16d79 "
        "1ccf0-1ccf9 1e4f0-1e4f9 1e5f1-1e5fa "
    ),
    "Nl": "16ff4-16ff6",
    "No": "1d2c0-1d2d3",
    "Pd": "10d6e",
    "Po": (
        "1b4e-1b4f 1b7f 10ed0 113d4-113d5 113d7-113d8 11b00-11b09 11be1 11f43-11f4f "
        "16d6d-16d6f 1e5ff "
    ),
    "Sm": "10d8e-10d8f 1cef0 1f8d0-1f8d8",
    "Sc": "20c1",
    "So": (
        "2427-2429 2b96 2ffc-2fff 31e4-31e5 31ef fbc3-fbd2 fd90-fd91 fdc8-fdce 10ed1-10ed8 "
        "1cc00-1ccef 1ccfa-1ccfc 1cd00-1ceb3 1ceba-1ced0 1cee0-1ceef 1f6d8 1f6dc 1f774-1f77f "
        "1f7d9 1f8b2-1f8bb 1f8c0-1f8c1 1fa54-1fa57 1fa75-1fa77 1fa87-1fa8a 1fa8e-1fa8f "
        "1faad-1faaf 1fabb-1fabf 1fac6 1fac8 1facd-1facf 1fada-1fadc 1fadf 1fae8-1faea 1faef "
        "1faf7-1faf8 1fbcb-1fbef 1fbfa "
    ),
    "Cf": "13439-1343f",
}
