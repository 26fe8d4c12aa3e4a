"""Candidate injections: (key, lib, family, file, old, new, extra_pytest_args).
Each injection replaces exactly one occurrence of `old` by `new` in `file` (relative to library root)."""
C = []
def add(key, lib, fam, path, old, new, extra=()):
    C.append(dict(key=key, lib=lib, family=fam, file=path, old=old, new=new, extra=list(extra)))

# ---- off-by-one (range/slice/index bound) ----
add("tu-obo", "text-unidecode", "off-by-one-index-bound", "src/text_unidecode/__init__.py",
    "chars.append(_replaces[codepoint-1])", "chars.append(_replaces[codepoint])", ["-v"])
add("idna-obo", "idna", "off-by-one-index-bound", "idna/intranges.py",
    "_encode_range(current_range[0], current_range[-1] + 1)", "_encode_range(current_range[0], current_range[-1])")
add("semver-obo", "semver", "off-by-one-index-bound", "src/semver/version.py",
    "        v1 = self.to_tuple()[:3]\n        v2 = other.to_tuple()[:3]", "        v1 = self.to_tuple()[:2]\n        v2 = other.to_tuple()[:2]")
add("mi-obo", "more-itertools", "off-by-one-index-bound", "more_itertools/more.py",
    "return len(take(n + 1, filter(predicate, iterable))) == n", "return len(take(n, filter(predicate, iterable))) == n", ["--color=yes"])
add("tab-obo", "tabulate", "off-by-one-index-bound", "tabulate/__init__.py",
    'return ("-" * (w - 1)) + ":"', 'return ("-" * w) + ":"')
add("hum-obo", "humanize", "off-by-one-index-bound", "src/humanize/lists.py",
    'return ", ".join(str(item) for item in items[:-1])', 'return ", ".join(str(item) for item in items[:-2])')

# ---- boundary comparison (< vs <=) ----
add("ct-bnd", "cachetools", "boundary-comparison-operator", "src/cachetools/__init__.py",
    "        if size > maxsize:", "        if size >= maxsize:")
add("hum-bnd", "humanize", "boundary-comparison-operator", "src/humanize/number.py",
    "        if value < power:", "        if value <= power:")
add("mi-bnd", "more-itertools", "boundary-comparison-operator", "more_itertools/more.py",
    "stop += q + 1 if i <= r else q", "stop += q + 1 if i < r else q")
add("wcw-bnd", "wcwidth", "boundary-comparison-operator", "wcwidth/wcwidth.py",
    "    if 32 <= ucs < 0x7f:", "    if 32 <= ucs <= 0x7f:")
add("idna-bnd", "idna", "boundary-comparison-operator", "idna/intranges.py",
    "        if left <= int_ < right:", "        if left <= int_ <= right:", ["-v"])
add("semver-bnd", "semver", "boundary-comparison-operator", "src/semver/version.py",
    "and (other.minor >= self.minor)", "and (other.minor > self.minor)")
add("bol-bnd", "boltons", "boundary-comparison-operator", "boltons/mathutils.py",
    "    i = bisect.bisect_left(options, x)", "    i = bisect.bisect_right(options, x)")

# ---- strip()/rstrip()/lstrip() with a character set used to remove an affix ----
add("bol-strip", "boltons", "strip-charset-instead-of-affix", "boltons/strutils.py",
    "        singular = word[:-2]", "        singular = word.rstrip('es')")
add("idna-strip", "idna", "strip-charset-instead-of-affix", "idna/core.py",
    "label_bytes = label_bytes[len(_alabel_prefix) :]", "label_bytes = label_bytes.lstrip(_alabel_prefix)")
add("inf-strip", "inflection", "strip-charset-instead-of-affix", "inflection/__init__.py",
    '    word = re.sub(r"_id$", "", word)', '    word = word.rstrip("_id")')
add("hum-strip", "humanize", "strip-charset-instead-of-affix", "src/humanize/number.py",
    '    part2 = re.sub(r"^\\+?(\\-?)0*(.+)$", r"\\1\\2", part2)', '    part2 = part2.lstrip("+0")')

# ---- true division vs floor division ----
add("wc-div", "webcolors", "true-vs-floor-division", "src/webcolors/_normalization.py",
    'float(percent.split("%")[0]) / 100 * 255', 'float(percent.split("%")[0]) // 100 * 255')
add("hum-div", "humanize", "true-vs-floor-division", "src/humanize/filesize.py",
    "format % (base * bytes_ / unit) + s", "format % (base * bytes_ // unit) + s")
add("iso-div", "isodate", "true-vs-floor-division", "src/isodate/isostrf.py",
    'return str(abs(tdt.days // 7)) + "W"', 'return str(abs(tdt.days / 7)) + "W"')
add("wcw-div", "wcwidth", "true-vs-floor-division", "wcwidth/wcwidth.py",
    "        mid = (lbound + ubound) // 2", "        mid = (lbound + ubound) / 2")

# ---- missing case normalisation (lower()) ----
add("wc-case", "webcolors", "missing-case-normalization", "src/webcolors/_conversion.py",
    "if hex_value := color_map.get(name.lower()):", "if hex_value := color_map.get(name):")
add("parse-case", "parse", "missing-case-normalization", "parse.py",
    'string = re.sub("[^%s]" % chars, "", string.lower())', 'string = re.sub("[^%s]" % chars, "", string)', ["-v"])
add("inf-case", "inflection", "missing-case-normalization", "inflection/__init__.py",
    "    if not word or word.lower() in UNCOUNTABLES:", "    if not word or word in UNCOUNTABLES:")
add("idna-case", "idna", "missing-case-normalization", "idna/core.py",
    "    label_bytes = label_bytes.lower()\n", "")
add("tab-case", "tabulate", "missing-case-normalization", "tabulate/__init__.py",
    'return string.lower() in ["inf", "-inf", "nan"]', 'return string in ["inf", "-inf", "nan"]')

# ---- missing sorted() ----
add("ct-sort", "cachetools", "missing-sort-order-dependent", "src/cachetools/keys.py",
    "return _HashedTuple(args + sum(sorted(kwargs.items()), _kwmark))", "return _HashedTuple(args + sum(tuple(kwargs.items()), _kwmark))")
add("bol-sort", "boltons", "missing-sort-order-dependent", "boltons/mathutils.py",
    "    options = sorted(options)\n    i = bisect.bisect_left(options, x)", "    options = list(options)\n    i = bisect.bisect_left(options, x)")
add("wc-sort", "webcolors", "missing-sort-order-dependent", "src/webcolors/_definitions.py",
    "return list(sorted(mapping.keys()))", "return list(mapping.keys())")
add("idna-sort", "idna", "missing-sort-order-dependent", "idna/intranges.py",
    "sorted_list = sorted(list_)", "sorted_list = list(list_)")

# ---- exception caught too narrowly ----
add("tz-exc", "toolz", "exception-caught-too-narrowly", "toolz/dicttoolz.py",
    "    except (KeyError, IndexError, TypeError):\n        if no_default:", "    except (KeyError, IndexError):\n        if no_default:")
add("mi-exc", "more-itertools", "exception-caught-too-narrowly", "more_itertools/more.py",
    "    except (IndexError, TypeError, StopIteration):\n        if default is _marker:\n            raise ValueError(\n                'last()",
    "    except (IndexError, TypeError):\n        if default is _marker:\n            raise ValueError(\n                'last()")
add("hum-exc", "humanize", "exception-caught-too-narrowly", "src/humanize/number.py",
    "    except (TypeError, ValueError):\n        return str(value)\n    if gender", "    except ValueError:\n        return str(value)\n    if gender")
add("tab-exc", "tabulate", "exception-caught-too-narrowly", "tabulate/__init__.py",
    "    try:\n        string = string.decode()\n    except (UnicodeDecodeError, AttributeError):", "    try:\n        string = string.decode()\n    except UnicodeDecodeError:")
add("bol-exc", "boltons", "exception-caught-too-narrowly", "boltons/iterutils.py",
    "                except (ValueError, KeyError, IndexError, TypeError):", "                except (KeyError, IndexError, TypeError):")

# ---- missing return (function returns None) ----
add("tab-ret", "tabulate", "missing-return-value", "tabulate/__init__.py",
    "        padded_cells = [pad + cell + pad for cell in cells]\n        return padded_cells\n", "        padded_cells = [pad + cell + pad for cell in cells]\n")
add("tz-ret", "toolz", "missing-return-value", "toolz/itertoolz.py",
    "        d[item] += 1\n    return dict(d)", "        d[item] += 1\n    dict(d)")
add("ct-ret", "cachetools", "missing-return-value", "src/cachetools/keys.py",
    "    key += tuple(type(v) for _, v in sorted(kwargs.items()))\n    return key\n", "    key += tuple(type(v) for _, v in sorted(kwargs.items()))\n")
add("semver-ret", "semver", "missing-return-value", "src/semver/version.py",
    "            string = string[: max(end - len(next_), start)] + next_ + string[end:]\n        return string\n",
    "            string = string[: max(end - len(next_), start)] + next_ + string[end:]\n")

# ---- early return inside loop ----
add("tz-early", "toolz", "early-return-inside-loop", "toolz/functoolz.py",
    "    for func in funcs:\n        data = func(data)\n    return data", "    for func in funcs:\n        data = func(data)\n        return data")
add("tab-early", "tabulate", "early-return-inside-loop", "tabulate/__init__.py",
    "        else:\n            ret.append(item)\n    return ret", "        else:\n            ret.append(item)\n        return ret")
add("semver-early", "semver", "early-return-inside-loop", "src/semver/version.py",
    "            cmp_result = cmp_prerelease_tag(sub_a, sub_b)\n            if cmp_result != 0:\n                return cmp_result",
    "            cmp_result = cmp_prerelease_tag(sub_a, sub_b)\n            return cmp_result")
add("mi-early", "more-itertools", "early-return-inside-loop", "more_itertools/more.py",
    "                return False\n            seenlist_add(element)\n    return True", "                return False\n            seenlist_add(element)\n        return True")
add("inf-early", "inflection", "early-return-inside-loop", "inflection/__init__.py",
    "            if re.search(rule, word):\n                return re.sub(rule, replacement, word)\n        return word",
    "            if re.search(rule, word):\n                return re.sub(rule, replacement, word)\n            return word")

# ---- regex missing anchor ----
add("wc-anchor", "webcolors", "regex-missing-anchor", "src/webcolors/_definitions.py",
    '_HEX_COLOR_RE = re.compile(r"^#([a-fA-F0-9]{3}|[a-fA-F0-9]{6})$")', '_HEX_COLOR_RE = re.compile(r"^#([a-fA-F0-9]{3}|[a-fA-F0-9]{6})")')
add("hum-anchor", "humanize", "regex-missing-anchor", "src/humanize/number.py",
    'new = re.sub(r"^(-?\\d+)(\\d{3})"', 'new = re.sub(r"(-?\\d+)(\\d{3})"')
add("semver-anchor", "semver", "regex-missing-anchor", "src/semver/version.py",
    "            ))?\n            $\n        \"\"\"", "            ))?\n        \"\"\"")
add("tab-anchor", "tabulate", "regex-missing-anchor", "tabulate/__init__.py",
    'r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\\.[0-9]*|\\.[0-9]+)?$"', 'r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\\.[0-9]*|\\.[0-9]+)?"')
add("iso-anchor", "isodate", "regex-missing-anchor", "src/isodate/isoduration.py",
    'r"(?P<seconds>[0-9]+([,.][0-9]+)?S)?)?$"', 'r"(?P<seconds>[0-9]+([,.][0-9]+)?S)?)?"')

# ---- unicode normalisation missing ----
add("inf-nfkd", "inflection", "missing-unicode-normalization", "inflection/__init__.py",
    "    normalized = unicodedata.normalize('NFKD', string)", "    normalized = string")
add("bol-nfkd", "boltons", "missing-unicode-normalization", "boltons/strutils.py",
    "        transd = unicodedata.normalize('NFKD', text.translate(DEACCENT_MAP))", "        transd = text.translate(DEACCENT_MAP)")
add("idna-nfc", "idna", "missing-unicode-normalization", "idna/core.py",
    '    return unicodedata.normalize("NFC", output)', "    return output")

# ---- swapped arguments ----
add("tz-swap", "toolz", "swapped-arguments", "toolz/functoolz.py",
    "            args = args + (val,)", "            args = (val,) + args")
add("semver-swap", "semver", "swapped-arguments", "src/semver/version.py",
    "        x = _cmp(v1, v2)", "        x = _cmp(v2, v1)")
add("iso-swap", "isodate", "swapped-arguments", "src/isodate/isodates.py",
    'sign * int(groups["year"]), int(groups["month"]) or defaultmonth, day', 'sign * int(groups["year"]), day, int(groups["month"]) or defaultmonth')
add("mi-swap", "more-itertools", "swapped-arguments", "more_itertools/more.py",
    "iterator = iter(partial(take, n, iter(iterable)), [])", "iterator = iter(partial(take, iter(iterable), n), [])")
add("wc-swap", "webcolors", "swapped-arguments", "src/webcolors/_conversion.py",
    "return IntegerRGB(int_value >> 16, int_value >> 8 & 0xFF, int_value & 0xFF)", "return IntegerRGB(int_value & 0xFF, int_value >> 8 & 0xFF, int_value >> 16)")

# ---- distractor families (records only) ----
add("hum-inv", "humanize", "inverted-condition", "src/humanize/filesize.py",
    "    if abs_bytes == 1 and not gnu:", "    if abs_bytes == 1 and gnu:")
add("parse-inv", "parse", "inverted-condition", "parse.py",
    '    if format.startswith("."):', '    if not format.startswith("."):')
add("semver-def", "semver", "wrong-default-value", "src/semver/version.py",
    'def bump_prerelease(self, token: Optional[str] = "rc")', 'def bump_prerelease(self, token: Optional[str] = "alpha")')
add("iso-def", "isodate", "wrong-default-value", "src/isodate/isoduration.py",
    "def parse_duration(datestring, as_timedelta_if_possible=True):", "def parse_duration(datestring, as_timedelta_if_possible=False):")
add("tu-def", "text-unidecode", "wrong-default-value", "src/text_unidecode/__init__.py",
    "        except IndexError:\n            pass", "        except IndexError:\n            chars.append('?')")
add("tz-copy", "toolz", "mutates-input-missing-copy", "toolz/dicttoolz.py",
    "    d2 = factory()\n    d2.update(d)\n    d2[key] = value", "    d2 = d\n    d2[key] = value")
add("wc-raise", "webcolors", "wrong-exception-type-raised", "src/webcolors/_normalization.py",
    '        raise ValueError(f\'"{hex_value}" is not a valid hexadecimal color value.\')', '        raise TypeError(f\'"{hex_value}" is not a valid hexadecimal color value.\')')
add("ct-raise", "cachetools", "wrong-exception-type-raised", "src/cachetools/__init__.py",
    "            raise ValueError(\"value too large\")", "            raise MemoryError(\"value too large\")")

# ---- second round (replacements for candidates whose suite did not catch the bug) ----
add("tz-exc2", "toolz", "exception-caught-too-narrowly", "toolz/itertoolz.py",
    "    except (KeyError, IndexError):  # we know `ind` is not a list",
    "    except KeyError:  # we know `ind` is not a list")
add("tab-div", "tabulate", "true-vs-floor-division", "tabulate/__init__.py",
    "        top_delta = delta_lines // 2", "        top_delta = delta_lines / 2")
add("bol-div", "boltons", "true-vs-floor-division", "boltons/mathutils.py",
    "tmpl = f'%0{2 * (self.len // 8 + ((self.len % 8) != 0))}X'", "tmpl = f'%0{2 * (self.len / 8 + ((self.len % 8) != 0))}X'")
add("mi-div", "more-itertools", "true-vs-floor-division", "more_itertools/recipes.py",
    "        c, n, r = c * r // n, n - 1, r - 1", "        c, n, r = c * r / n, n - 1, r - 1")
add("mi-sort", "more-itertools", "missing-sort-order-dependent", "more_itertools/recipes.py",
    "    return unique_justseen(sorted(iterable, key=key, reverse=reverse), key=key)", "    return unique_justseen(iterable, key=key)")
add("tab-sort", "tabulate", "missing-sort-order-dependent", "tabulate/__init__.py",
    "tabulate_formats = list(sorted(_table_formats.keys()))", "tabulate_formats = list(_table_formats.keys())")
add("bol-sort2", "boltons", "missing-sort-order-dependent", "boltons/statsutils.py",
    "        sorted_vals = sorted(self.data)", "        sorted_vals = list(self.data)")
add("mi-def", "more-itertools", "wrong-default-value", "more_itertools/more.py",
    "def windowed(seq, n, fillvalue=None, step=1):", "def windowed(seq, n, fillvalue=None, step=2):")

# ---- third round (more sites for query families) ----
add("iso-exc", "isodate", "exception-caught-too-narrowly", "src/isodate/duration.py",
    "        except AttributeError:\n            # other probably was not a date/datetime compatible object",
    "        except TypeError:\n            # other probably was not a date/datetime compatible object")
add("ct-exc", "cachetools", "exception-caught-too-narrowly", "src/cachetools/__init__.py",
    "        except IndexError:\n            raise KeyError(\"%s is empty\" % type(self).__name__) from None",
    "        except KeyError:\n            raise KeyError(\"%s is empty\" % type(self).__name__) from None", ["-v"])
add("wc-ret", "webcolors", "missing-return-value", "src/webcolors/_html5.py",
    "    # 3. Return result, which will be a valid lowercase simple color.\n    return result\n",
    "    # 3. Return result, which will be a valid lowercase simple color.\n", ["-v"])
add("hum-ret", "humanize", "missing-return-value", "src/humanize/filesize.py",
    "    ret: str = format % (base * bytes_ / unit) + s\n    return ret\n", "    ret: str = format % (base * bytes_ / unit) + s\n")
add("iso-ret", "isodate", "missing-return-value", "src/isodate/isodatetime.py",
    "    return strftime(tdt, format)", "    strftime(tdt, format)")
add("parse-early", "parse", "early-return-inside-loop", "parse.py",
    "            d[k] = value\n\n        return result", "            d[k] = value\n\n            return result")
add("bol-case", "boltons", "missing-case-normalization", "boltons/strutils.py",
    "    orig_word, word = word, word.strip().lower()\n    if not word or word in _IRR_P2S:",
    "    orig_word, word = word, word.strip()\n    if not word or word in _IRR_P2S:")
add("wc-bnd", "webcolors", "boundary-comparison-operator", "src/webcolors/_html5.py",
    "    while (length > 2) and", "    while (length >= 2) and")
add("tab-bnd", "tabulate", "boundary-comparison-operator", "tabulate/__init__.py",
    "        or (len(row) >= 2 and row[1] == SEPARATING_LINE)", "        or (len(row) > 2 and row[1] == SEPARATING_LINE)")

# output style overrides (extra pytest command-line args) chosen to vary the captured output
STYLE = {"tz-swap": ["--color=yes"], "iso-anchor": ["--color=yes"], "semver-swap": ["--color=yes"],
         "tz-early": ["-v"], "bol-sort": ["-v"], "ct-ret": ["--color=yes"]}
for c in C:
    if c["key"] in STYLE:
        c["extra"] = STYLE[c["key"]]
