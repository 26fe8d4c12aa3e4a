"""Which candidate becomes a record (with its fix description) or a query. Candidates not listed are not used."""
RECORDS = {
 # off-by-one-index-bound
 "idna-obo": "intranges_from_list encoded each run with an inclusive end (current_range[-1]) while the decoder treats the end as exclusive, so the last code point of every run was dropped. Restored the exclusive end: current_range[-1] + 1.",
 "tab-obo": "The pipe-format separator segment for right/decimal aligned columns was one dash too long: it used w dashes plus the ':' instead of w - 1. Restored '-' * (w - 1) + ':' so the rule matches the column width.",
 "tu-obo": "The replacement table is indexed from code point 1 (entry 0 is code point 1), but the lookup used _replaces[codepoint], shifting every character by one. Restored _replaces[codepoint - 1].",
 # boundary-comparison-operator
 "semver-bnd": "is_compatible rejected versions whose minor equals the base minor because the check used other.minor > self.minor; an equal minor is compatible. Changed back to >=.",
 "ct-bnd": "Cache.__setitem__ raised 'value too large' when an item's size was exactly maxsize (size >= maxsize); an item that fits exactly must be accepted. Changed the guard to size > maxsize.",
 # strip-charset-instead-of-affix
 "idna-strip": "ulabel removed the 'xn--' ACE prefix with bytes.lstrip(b'xn--'), which strips any leading x, n or - characters and so also ate the first letters of punycode labels starting with n/x. Slice the prefix off instead: label_bytes[len(_alabel_prefix):].",
 "hum-strip": "scientific() removed the exponent's '+' sign and leading zeros with lstrip('+0'), which removes a zero exponent entirely ('10' instead of '10⁰') and does not strip zeros after a minus sign ('10⁻⁰¹'). Restored the anchored regex that strips only the sign and leading zeros while keeping at least one digit.",
 # true-vs-floor-division
 "wcw-div": "_bisearch computed the midpoint with true division ((lbound + ubound) / 2), giving a float that cannot index the table (TypeError: list indices must be integers). Use floor division //.",
 "tab-div": "Vertical centring of multiline cells computed top_delta = delta_lines / 2, a float, so 'top_delta * blank' raised TypeError for list repetition. Use integer division delta_lines // 2.",
 # missing-case-normalization
 "bol-case": "pluralize looked the stripped word up in the irregular/uncountable tables without lower-casing it, so capitalised words such as 'Sheep' missed the lookup and got a regular plural. Lower-case the word before the lookup (_match_case restores the caller's casing afterwards).",
 "parse-case": "int_convert filtered the digits against the lowercase digit alphabet without lower-casing the input, so upper-case hex digits (0xAB) were dropped. Call string.lower() before filtering.",
 # missing-sort-order-dependent
 "wc-sort": "names() returned the mapping's keys in dict insertion order instead of alphabetical order as documented. Wrap the keys in sorted() again.",
 "mi-sort": "unique() passed the input straight to unique_justseen, which only collapses adjacent duplicates, so unsorted input kept repeats and came out unsorted. Sort the iterable (with key/reverse) before unique_justseen.",
 # exception-caught-too-narrowly
 "tab-exc": "_isnumber_with_thousands_separator calls string.decode() to handle bytes but only caught UnicodeDecodeError; for str input .decode raises AttributeError, which escaped. Catch (UnicodeDecodeError, AttributeError) again.",
 "mi-exc": "last() only caught IndexError/TypeError, but for an empty reversible iterable next(reversed(...)) raises StopIteration, which leaked instead of returning the default / raising ValueError. Added StopIteration to the except tuple.",
 # missing-return-value
 "semver-ret": "Version._increment_string built the incremented string but the trailing 'return string' was lost, so it returned None and bump_prerelease/bump_build produced None parts or crashed. Restored the return statement.",
 "tz-ret": "frequencies() built the counts dict but did not return it (the final line was a bare dict(d)), so callers got None. Return dict(d).",
 # early-return-inside-loop
 "mi-early": "all_unique had 'return True' indented inside the for loop, so it returned after looking at the first element and never detected later duplicates. Dedented the return to after the loop.",
 "inf-early": "pluralize had the fallback 'return word' inside the rules loop, so it gave up after the first rule that did not match and most words were returned unchanged. Moved the return after the loop.",
 # regex-missing-anchor
 "semver-anchor": "The version regex template lost its trailing $ anchor, so Version.parse accepted just the valid prefix of a string: prerelease '0f' was cut to '0' and zero-prefixed versions like '1.2.03' were no longer rejected. Restored the $ at the end of the pattern.",
 "tab-anchor": "_float_with_thousands_separators lacked the trailing $ anchor, so strings that merely start like a number (e.g. with malformed thousands separators) were treated as numeric and decimal alignment went wrong. Anchored the regex at the end again.",
 # swapped-arguments
 "semver-swap": "Version.compare called _cmp(v2, v1) with the operands swapped, inverting the sign of every major/minor/patch comparison (so 1.0.0 > 2.0.0). Call _cmp(v1, v2).",
 "iso-swap": "parse_date constructed date(year, day, month): month and day arguments were swapped, giving wrong dates or 'month must be in 1..12' errors. Pass date(year, month, day).",
 # distractors (families without queries)
 "hum-inv": "naturalsize's singular special case had its condition inverted (abs_bytes == 1 and gnu), so 1 byte printed '1 Bytes' in the default style and '1 Byte' in GNU style. Restored 'and not gnu'.",
 "parse-inv": "extract_format handled the '.precision' part only when the format did NOT start with '.', inverting the check and mis-parsing most format specs. Restored format.startswith('.').",
 "semver-def": "bump_prerelease defaulted its token to 'alpha' instead of the documented 'rc', so bumping a version without a prerelease produced '-alpha.1'. Restored token='rc'.",
 "iso-def": "parse_duration's as_timedelta_if_possible defaulted to False, so durations without years/months came back as Duration instead of timedelta. Restored the default True.",
 "mi-def": "windowed() defaulted step to 2 instead of 1, so windows skipped every other position by default. Restored step=1.",
 "wc-raise": "normalize_hex raised TypeError for malformed hex strings, but the API (and callers catching it) expect ValueError for invalid values. Raise ValueError again.",
 "ct-raise": "Cache.__setitem__ raised MemoryError for items larger than maxsize, but the documented contract (and the cached decorators, which catch it) use ValueError('value too large'). Raise ValueError again.",
 "inf-nfkd": "transliterate encoded to ASCII with errors='ignore' without first decomposing the string, so accented letters were dropped instead of reduced to their base letter. Apply unicodedata.normalize('NFKD') before encoding.",
}
QUERIES = ["semver-obo", "mi-obo", "hum-obo",
           "mi-bnd", "idna-bnd", "bol-bnd",
           "bol-strip", "inf-strip",
           "wc-div", "iso-div", "bol-div",
           "wc-case", "inf-case",
           "bol-sort",
           "hum-exc", "iso-exc", "ct-exc",
           "ct-ret", "wc-ret", "iso-ret",
           "semver-early", "tz-early", "parse-early",
           "wc-anchor", "hum-anchor", "iso-anchor",
           "tz-swap", "mi-swap", "wc-swap"]
