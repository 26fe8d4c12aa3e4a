from app.names import canonical_username
from app.registry import Registry

COMPOSED = "Ren\u00e9"     # "René" with a precomposed é
DECOMPOSED = "Rene\u0301"  # "René" as e + combining acute accent


def test_both_encodings_share_one_key():
    assert canonical_username(DECOMPOSED) == canonical_username(COMPOSED)


def test_decomposed_duplicate_is_refused():
    registry = Registry()
    registry.register(COMPOSED)
    assert registry.register(DECOMPOSED) is False


def test_lookup_with_decomposed_spelling():
    registry = Registry()
    registry.register("Zo\u00eb")
    assert registry.display_name("zoe\u0308") == "Zo\u00eb"


def test_case_and_encoding_differences_together():
    registry = Registry()
    registry.register("J\u00f6rg")
    assert registry.register("JO\u0308RG") is False
