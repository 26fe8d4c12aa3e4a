"""Candidate injections: (key, lib, family, file, old, new, extra_pytest_args).
Each injection replaces exactly one occurrence of `old` by `new` in `file` (relative to library root)."""
C = []
def add(key, lib, fam, path, old, new, extra=()):
    C.append(dict(key=key, lib=lib, family=fam, file=path, old=old, new=new, extra=list(extra)))

OBO = "off-by-one-index-bound"
BND = "boundary-comparison-operator"
INV = "inverted-condition"
RET = "missing-return-value"
SWP = "swapped-arguments"
EARLY = "early-return-inside-loop"
EXC = "exception-caught-too-narrowly"
CASE = "missing-case-normalization"
DIV = "true-vs-floor-division"
ANC = "regex-missing-anchor"
SEP = "wrong-join-split-separator"
VAR = "wrong-variable-used"
MUT = "dict-mutated-while-iterating"
DEF = "wrong-default-value"
RAISE = "wrong-exception-type-raised"
STRIP = "strip-charset-instead-of-affix"

# ---- off-by-one ----
add("ps-obo", "pathspec", OBO, "pathspec/util.py",
    "\t\tnorm_file = norm_file[2:]", "\t\tnorm_file = norm_file[1:]")
add("rfc-obo", "rfc3986", OBO, "src/rfc3986/normalizers.py",
    "byte = uri_bytes[i : i + 1]", "byte = uri_bytes[i : i + 2]")
add("xml-obo", "xmltodict", OBO, "xmltodict.py",
    "namespace, name = full_name[:i], full_name[i+1:]", "namespace, name = full_name[:i], full_name[i:]")
add("tc-obo", "titlecase", OBO, "titlecase/__init__.py",
    "                word = word[0].upper() + word[1:]\n", "                word = word[0].upper() + word[2:]\n")
add("tt-obo", "texttable", OBO, "texttable.py",
    "        return out[:-1]\n", "        return out\n")
add("ut-obo", "uritemplate", OBO, "uritemplate/variable.py",
    "            value = value[:prefix] if prefix else value\n            return f\"{name}={_quote(value)}\"",
    "            value = value[:prefix - 1] if prefix else value\n            return f\"{name}={_quote(value)}\"")
add("ptp-obo", "pytimeparse", OBO, "pytimeparse/timeparse.py",
    'MINCLOCK = r"(?P<mins>\\d{1,2}):', 'MINCLOCK = r"(?P<mins>\\d{1}):')

# ---- boundary comparison ----
add("os-bnd", "ordered-set", BND, "ordered_set/__init__.py",
    "                if v >= i:", "                if v > i:")
add("os-bnd2", "ordered-set", BND, "ordered_set/__init__.py",
    "        if len(self) > len(other):  # Fast check", "        if len(self) >= len(other):  # Fast check")
add("tdb-bnd", "tinydb", BND, "tinydb/utils.py",
    "self.length > self.capacity:", "self.length >= self.capacity:")
add("vol-bnd", "voluptuous", BND, "voluptuous/validators.py",
    "            if self.max is not None and len(v) > self.max:", "            if self.max is not None and len(v) >= self.max:")
add("sch-bnd", "schema", BND, "schema/__init__.py",
    "failed: bool = self.match_count > 1 and self.only_one", "failed: bool = self.match_count >= 1 and self.only_one")
add("tt-bnd", "texttable", BND, "texttable.py",
    "if self._has_hlines() and length < len(self._rows):", "if self._has_hlines() and length <= len(self._rows):")
add("tc-bnd", "titlecase", BND, "titlecase/__init__.py",
    "if is_all_consonants and len(word) > 2:", "if is_all_consonants and len(word) >= 2:")
add("xml-bnd", "xmltodict", BND, "xmltodict.py",
    "        if len(self.path) >= self.item_depth:", "        if len(self.path) > self.item_depth:")
add("ps-bnd", "pathspec", BND, "pathspec/patterns/gitignore/base.py",
    "\t\twhile i < end:", "\t\twhile i <= end:")

# ---- inverted condition ----
add("ad-inv", "addict", INV, "addict/addict.py",
    "if isFrozen and name not in super(Dict, self).keys():", "if isFrozen and name in super(Dict, self).keys():")
add("iso-inv", "iso8601", INV, "iso8601/iso8601.py",
    '    if sign == "-":', '    if sign == "+":')
add("sch-inv", "schema", INV, "schema/__init__.py",
    "if not self._ignore_extra_keys and (len(new) != len(data)):", "if self._ignore_extra_keys and (len(new) != len(data)):")
add("mu-inv", "munch", INV, "munch/__init__.py",
    "        partial, already_seen = pre_munchify_cycles(obj)\n        if already_seen:",
    "        partial, already_seen = pre_munchify_cycles(obj)\n        if not already_seen:")
add("tt-inv", "texttable", INV, "texttable.py",
    "fn = cls._fmt_bool if isinstance(x, bool) else cls._fmt_int", "fn = cls._fmt_bool if not isinstance(x, bool) else cls._fmt_int")
add("os-inv", "ordered-set", INV, "ordered_set/__init__.py",
    "if isinstance(key, Iterable) and not _is_atomic(key):", "if isinstance(key, Iterable) and _is_atomic(key):")
add("ut-inv", "uritemplate", INV, "uritemplate/variable.py",
    'if not value and value != "" and name in self.defaults:', 'if value and value != "" and name in self.defaults:')

# ---- missing return value ----
add("ad-ret", "addict", RET, "addict/addict.py",
    "        self.update(other)\n        return self\n", "        self.update(other)\n")
add("os-ret", "ordered-set", RET, "ordered_set/__init__.py",
    "        return item_index\n", "")
add("tdb-ret", "tinydb", RET, "tinydb/table.py",
    "            self._update_table(updater)\n\n            return removed_ids\n\n        raise RuntimeError('Use truncate()",
    "            self._update_table(updater)\n\n        raise RuntimeError('Use truncate()")
add("xml-ret", "xmltodict", RET, "xmltodict.py",
    "            return self.force_list(self.path[:-1], key, value)", "            self.force_list(self.path[:-1], key, value)")
add("mu-ret", "munch", RET, "munch/__init__.py",
    "        except AttributeError:\n            return self.__default__", "        except AttributeError:\n            self.__default__")
add("ut-ret", "uritemplate", RET, "uritemplate/variable.py",
    "                value = \",\".join(_quote(v) for v in value)\n                return f\"{name}={value}\"",
    "                value = \",\".join(_quote(v) for v in value)\n                f\"{name}={value}\"")

# ---- swapped arguments ----
add("iso-swp", "iso8601", SWP, "iso8601/iso8601.py",
    "return FixedOffset(hours, minutes, description)", "return FixedOffset(minutes, hours, description)")
add("ut-swp", "uritemplate", SWP, "uritemplate/variable.py",
    'expanded = expansion(name, value, opts["explode"], opts["prefix"])', 'expanded = expansion(name, value, opts["prefix"], opts["explode"])')
add("xml-swp", "xmltodict", SWP, "xmltodict.py",
    "            return self.force_cdata(self.path[:-1], key, value)", "            return self.force_cdata(self.path[:-1], value, key)")
add("ad-swp", "addict", SWP, "addict/addict.py",
    "        new = Dict(other)\n        new.update(self)", "        new = Dict(self)\n        new.update(other)")
add("tt-swp", "texttable", SWP, "texttable.py",
    "        return '%.*f' % (n, cls._to_float(x))", "        return '%.*f' % (cls._to_float(x), n)")
add("ptp-swp", "pytimeparse", SWP, "pytimeparse/timeparse.py",
    "                mdict = _interpret_as_minutes(sval, mdict)", "                mdict = _interpret_as_minutes(mdict, sval)")

# ---- early return / break inside loop ----
add("rfc-early", "rfc3986", EARLY, "src/rfc3986/normalizers.py",
    "            s = s.replace(m, m.upper())\n    return s", "            return s.replace(m, m.upper())\n    return s")
add("ut-early", "uritemplate", EARLY, "uritemplate/variable.py",
    "            if value is None:\n                continue\n", "            if value is None:\n                break\n")
add("vol-early", "voluptuous", EARLY, "voluptuous/validators.py",
    "                else:\n                    v = func(path, v)\n        except Invalid as e:\n            raise e if self.msg is None else AllInvalid",
    "                else:\n                    return func(path, v)\n        except Invalid as e:\n            raise e if self.msg is None else AllInvalid")
add("ps-early", "pathspec", EARLY, "pathspec/util.py",
    "\t\t\t\tout_include = pattern.include\n\t\t\t\tout_index = index\n", "\t\t\t\treturn pattern.include, index\n")
add("ps-early2", "pathspec", EARLY, "pathspec/util.py",
    "\t\t\tmatched = pattern.include\n", "\t\t\treturn pattern.include\n")
add("tdb-early", "tinydb", EARLY, "tinydb/table.py",
    "                        # Perform the update (see above)\n                        perform_update(fields, table, doc_id)\n",
    "                        # Perform the update (see above)\n                        perform_update(fields, table, doc_id)\n                        return\n")

# ---- exception caught too narrowly ----
add("vol-exc", "voluptuous", EXC, "voluptuous/validators.py",
    "        except (TypeError, ValueError):\n            raise DatetimeInvalid(", "        except ValueError:\n            raise DatetimeInvalid(")
add("sch-exc", "schema", EXC, "schema/__init__.py",
    "        except BaseException as x:\n            f = _callable_str(self._callable)\n            raise SchemaError(\n                \"%s(%r) raised %r\" % (f, data, x),",
    "        except ValueError as x:\n            f = _callable_str(self._callable)\n            raise SchemaError(\n                \"%s(%r) raised %r\" % (f, data, x),")
add("tt-exc", "texttable", EXC, "texttable.py",
    "            return float(x)\n        except (TypeError, ValueError):", "            return float(x)\n        except ValueError:")
add("ptp-exc", "pytimeparse", EXC, "pytimeparse/timeparse.py",
    "            except (ValueError, InvalidOperation):", "            except ValueError:")
add("tdb-exc", "tinydb", EXC, "tinydb/queries.py",
    "            except TypeError:", "            except AttributeError:")
add("mu-exc", "munch", EXC, "munch/__init__.py",
    "                self[k] = v\n            except:", "                self[k] = v\n            except KeyError:")

# ---- missing case normalisation ----
add("rfc-case", "rfc3986", CASE, "src/rfc3986/normalizers.py",
    "def normalize_scheme(scheme):\n    \"\"\"Normalize the scheme component.\"\"\"\n    return scheme.lower()",
    "def normalize_scheme(scheme):\n    \"\"\"Normalize the scheme component.\"\"\"\n    return scheme")
add("vol-case", "voluptuous", CASE, "voluptuous/validators.py",
    "        v = v.lower()\n        if v in ('1', 'true',", "        if v in ('1', 'true',")
add("tc-case", "titlecase", CASE, "titlecase/__init__.py",
    "return lambda word, **kwargs: abbrevs.get(word.upper())", "return lambda word, **kwargs: abbrevs.get(word)")
add("ptp-case", "pytimeparse", CASE, "pytimeparse/timeparse.py",
    're.compile(r"\\s*" + timefmt + r"\\s*$", re.I)', 're.compile(r"\\s*" + timefmt + r"\\s*$")')

# ---- true vs floor division ----
add("tt-div", "texttable", DIV, "texttable.py",
    "cell[:0] = [\"\"] * int(missing / 2)", "cell[:0] = [\"\"] * (missing / 2)")
add("tt-div2", "texttable", DIV, "texttable.py",
    "length = (length//8 + 1) * 8", "length = (length/8 + 1) * 8")

# ---- regex missing anchor ----
add("iso-anc", "iso8601", ANC, "iso8601/iso8601.py",
    "    ){0,1}  # YYYY only\n    $\n", "    ){0,1}  # YYYY only\n")
add("ptp-anc", "pytimeparse", ANC, "pytimeparse/timeparse.py",
    're.compile(r"\\s*" + timefmt + r"\\s*$", re.I)', 're.compile(r"\\s*" + timefmt + r"\\s*", re.I)')
add("vol-anc", "voluptuous", ANC, "voluptuous/validators.py",
    "    r'(\\.(25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)){3}\\]$'\n    # end anchor, because fullmatch is not available in python 2.7\n    r\")\\Z\",",
    "    r'(\\.(25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)){3}\\]$'\n    # end anchor, because fullmatch is not available in python 2.7\n    r\")\",")
add("rfc-anc", "rfc3986", ANC, "src/rfc3986/misc.py",
    'SCHEME_MATCHER = re.compile(f"^{abnf_regexp.SCHEME_RE}$")', 'SCHEME_MATCHER = re.compile(f"^{abnf_regexp.SCHEME_RE}")')
add("rfc-anc2", "rfc3986", ANC, "src/rfc3986/misc.py",
    'HOST_MATCHER = re.compile("^" + abnf_regexp.HOST_RE + "$")', 'HOST_MATCHER = re.compile("^" + abnf_regexp.HOST_RE)')

# ---- wrong join/split separator ----
add("tc-sep", "titlecase", SEP, "titlecase/__init__.py",
    'tc_line.append("/".join(slashed))', 'tc_line.append("-".join(slashed))')
add("ut-sep", "uritemplate", SEP, "uritemplate/variable.py",
    "                value = \",\".join(_quote(v) for v in value)\n                return f\"{name}={value}\"",
    "                value = \"&\".join(_quote(v) for v in value)\n                return f\"{name}={value}\"")
add("sch-sep", "schema", SEP, "schema/__init__.py",
    "                s_missing_keys = \", \".join(", "                s_missing_keys = \",\".join(")
add("ps-sep", "pathspec", SEP, "pathspec/patterns/gitignore/spec.py",
    "\t\torig_segs = pattern_str.split('/')", "\t\torig_segs = pattern_str.split('\\\\')")
add("tt-sep", "texttable", SEP, "texttable.py",
    "            parts = line.split('\\t')", "            parts = line.split(' ')")

# ---- wrong variable used ----
add("ad-var", "addict", VAR, "addict/addict.py",
    "                    item.to_dict() if isinstance(item, type(self)) else\n                    item for item in value)",
    "                    item.to_dict() if isinstance(item, type(self)) else\n                    value for item in value)")
add("mu-var", "munch", VAR, "munch/__init__.py",
    "partial.update((k, munchify_cycles(obj[k])) for k in obj.keys())", "partial.update((k, munchify_cycles(obj)) for k in obj.keys())")
add("os-var", "ordered-set", VAR, "ordered_set/__init__.py",
    "        del self.items[index]\n        del self.map[elem]", "        del self.items[index]\n        del self.map[index]")
add("iso-var", "iso8601", VAR, "iso8601/iso8601.py",
    'day=int(groups.get("day", groups.get("daydash", 1))),', 'day=int(groups.get("day", groups.get("monthdash", 1))),')
add("tdb-var", "tinydb", VAR, "tinydb/table.py",
    "                    doc_id for doc_id in requested_ids if doc_id in table\n                )\n                for doc_id in removed_ids:",
    "                    doc_id for doc_id in requested_ids if doc_id in table\n                )\n                for doc_id in requested_ids:")

# ---- distractors ----
add("tdb-mut", "tinydb", MUT, "tinydb/table.py",
    "                for doc_id in list(table.keys()):\n                    if _cond(table[doc_id]):\n                        # Add document ID to list of removed document IDs\n                        removed_ids.append(doc_id)",
    "                for doc_id in table.keys():\n                    if _cond(table[doc_id]):\n                        # Add document ID to list of removed document IDs\n                        removed_ids.append(doc_id)")
add("ad-mut", "addict", MUT, "addict/addict.py",
    "        for k, v in other.items():\n            if ((k not in self) or", "        for k, v in other.items():\n            other.pop(k)\n            if ((k not in self) or")
add("iso-def", "iso8601", DEF, "iso8601/iso8601.py",
    'month=int(groups.get("month", groups.get("monthdash", 1))),', 'month=int(groups.get("month", groups.get("monthdash", 0))),')
add("ptp-def", "pytimeparse", DEF, "pytimeparse/timeparse.py",
    'def timeparse(sval: str, granularity: str = "seconds")', 'def timeparse(sval: str, granularity: str = "minutes")')
add("ad-raise", "addict", RAISE, "addict/addict.py",
    "        if object.__getattribute__(self, '__frozen'):\n            raise KeyError(name)", "        if object.__getattribute__(self, '__frozen'):\n            raise AttributeError(name)")
add("tdb-raise", "tinydb", RAISE, "tinydb/table.py",
    "        if not isinstance(document, Mapping):\n            raise ValueError('Document is not a Mapping')", "        if not isinstance(document, Mapping):\n            raise TypeError('Document is not a Mapping')")
add("ps-strip", "pathspec", STRIP, "pathspec/util.py",
    "\t\tnorm_file = norm_file[2:]", "\t\tnorm_file = norm_file.lstrip('./')")
add("xml-strip", "xmltodict", STRIP, "xmltodict.py",
    "        ns_res = namespaces.get(ns.strip(attr_prefix))", "        ns_res = namespaces.get(ns.strip(attr_prefix + ':'))")

# ---- second batch (after the first run: more candidates for thin families) ----
add("tc-case2", "titlecase", CASE, "titlecase/__init__.py",
    "SMALL_WORDS = regex.compile(r'^(%s)$' % SMALL, regex.I)", "SMALL_WORDS = regex.compile(r'^(%s)$' % SMALL)")
add("rfc-case2", "rfc3986", CASE, "src/rfc3986/normalizers.py",
    "            return host[:percent].lower() + host[percent:]\n\n    return host.lower()", "            return host[:percent].lower() + host[percent:]\n\n    return host")
add("iso-exc", "iso8601", EXC, "iso8601/iso8601.py",
    "    except Exception as e:\n        raise ParseError(e)\n\n\ndef is_iso8601", "    except ValueError as e:\n        raise ParseError(e)\n\n\ndef is_iso8601")
add("iso-exc2", "iso8601", EXC, "iso8601/iso8601.py",
    "        m = ISO8601_REGEX.match(datestring)\n    except Exception as e:\n        raise ParseError(e)\n\n    if not m:", "        m = ISO8601_REGEX.match(datestring)\n    except ValueError as e:\n        raise ParseError(e)\n\n    if not m:")
add("sch-exc2", "schema", EXC, "schema/__init__.py",
    "            except BaseException as x:\n                message = \"%s(%r) raised %r\" % (f, data, x)", "            except ValueError as x:\n                message = \"%s(%r) raised %r\" % (f, data, x)")
add("sch-exc3", "schema", EXC, "schema/__init__.py",
    "            except BaseException as x:\n                message = \"%r.validate(%r) raised %r\" % (s, data, x)", "            except ValueError as x:\n                message = \"%r.validate(%r) raised %r\" % (s, data, x)")
add("tt-exc2", "texttable", EXC, "texttable.py",
    "                except (TypeError, IndexError):", "                except IndexError:")
add("vol-exc2", "voluptuous", EXC, "voluptuous/validators.py",
    "            return self.type(v)\n        except (ValueError, TypeError, InvalidOperation):", "            return self.type(v)\n        except (ValueError, InvalidOperation):")
add("ad-exc", "addict", EXC, "addict/addict.py",
    "            key = object.__getattribute__(self, '__key')\n        except AttributeError:", "            key = object.__getattribute__(self, '__key')\n        except KeyError:")
add("xml-exc", "xmltodict", EXC, "xmltodict.py",
    "        except TypeError:\n            return self.force_list(self.path[:-1], key, value)", "        except ValueError:\n            return self.force_list(self.path[:-1], key, value)")
add("os-exc", "ordered-set", EXC, "ordered_set/__init__.py",
    "        except TypeError:\n            raise ValueError(", "        except AttributeError:\n            raise ValueError(")
add("vol-case2", "voluptuous", CASE, "voluptuous/validators.py",
    "{3}\\]$'\n    # end anchor, because fullmatch is not available in python 2.7\n    r\")\\Z\",\n    re.IGNORECASE,\n)",
    "{3}\\]$'\n    # end anchor, because fullmatch is not available in python 2.7\n    r\")\\Z\",\n)")
add("mu-obo", "munch", OBO, "munch/__init__.py",
    "            default = args[0]\n            args = args[1:]", "            default = args[0]\n            args = args[2:]")
add("mu-ret2", "munch", RET, "munch/__init__.py",
    "        return unmunchify(self)", "        unmunchify(self)")
add("mu-swp", "munch", SWP, "munch/__init__.py",
    "        return munchify(d, factory=lambda d_: cls(default, d_))", "        return munchify(d, factory=lambda d_: cls(d_, default))")
add("vol-ret", "voluptuous", RET, "voluptuous/validators.py",
    "                    self.msg or 'length of value must be at most %s' % self.max\n                )\n            return v",
    "                    self.msg or 'length of value must be at most %s' % self.max\n                )")
add("rfc-obo2", "rfc3986", OBO, "src/rfc3986/normalizers.py",
    "percent_25 == len(host) - 4)", "percent_25 == len(host) - 3)")
add("ad-bnd", "addict", BND, "addict/addict.py",
    "            if len(args) > 1:", "            if len(args) >= 1:")
add("tdb-swp", "tinydb", SWP, "tinydb/table.py",
    "            return self.document_class(raw_doc, doc_id)", "            return self.document_class(doc_id, raw_doc)")
add("tc-anc", "titlecase", ANC, "titlecase/__init__.py",
    "SMALL_WORDS = regex.compile(r'^(%s)$' % SMALL, regex.I)", "SMALL_WORDS = regex.compile(r'^(%s)' % SMALL, regex.I)")
add("sch-early", "schema", EARLY, "schema/__init__.py",
    "            data = sub_schema.validate(data, **kwargs)\n        return data", "            return sub_schema.validate(data, **kwargs)\n        return data")
add("tc-early", "titlecase", EARLY, "titlecase/__init__.py",
    "        processed.append(result)\n", "        return result\n")
add("ptp-var", "pytimeparse", VAR, "pytimeparse/timeparse.py",
    "        mdict[\"hours\"] = mdict[\"mins\"]\n        mdict[\"mins\"] = mdict[\"secs\"]", "        mdict[\"hours\"] = mdict[\"mins\"]\n        mdict[\"mins\"] = mdict[\"hours\"]")

# output-style variety: some runs add -v or --color=yes on the command line
EXTRA = {"ptp-obo": ["-v"], "ad-inv": ["--color=yes"], "os-bnd": ["-v"], "tdb-ret": ["--color=yes"], "xml-swp": ["-v"],
         "rfc-early": ["--color=yes"], "sch-exc": ["-v"], "iso-anc": ["-v"], "tc-sep": ["--color=yes"], "mu-var": ["-v"],
         "vol-case": ["--color=yes"], "tt-div": ["-v"], "ut-swp": ["--color=yes"], "tdb-mut": ["-v"], "ps-early": ["--color=yes"],
         "iso-def": ["--color=yes"], "ad-ret": ["-v"], "os-var": ["--color=yes"], "ut-obo": ["-v"], "sch-bnd": ["--color=yes"], "sch-exc2": ["-v"], "iso-exc2": ["--color=yes"], "mu-obo": ["--color=yes"], "vol-ret": ["-v"], "tc-early": ["-v"]}
for _c in C:
    _c["extra"] = EXTRA.get(_c["key"], [])
