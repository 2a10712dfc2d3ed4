"""Host-only: ``from gcol import *`` gives every public class and function of
the package (issue 39: Set, Multiset, BloomFilter, HyperLogLog and
approx_distinct were missing from __all__)."""
import inspect

import gcol


def public_names():
    """Names without a leading underscore bound to classes or functions defined in gcol."""
    return {name for name, obj in vars(gcol).items()
            if not name.startswith("_") and (inspect.isclass(obj) or inspect.isfunction(obj))
            and (getattr(obj, "__module__", "") or "").partition(".")[0] == "gcol"}


def test_every_public_class_and_function_is_in_all():
    missing = public_names() - set(gcol.__all__)
    assert not missing, "not in gcol.__all__: %s" % sorted(missing)


def test_all_names_exist_once():
    assert len(gcol.__all__) == len(set(gcol.__all__))
    assert [n for n in gcol.__all__ if not hasattr(gcol, n)] == []


def test_star_import_gives_the_issue_names():
    space = {}
    exec("from gcol import *", space)
    for name in ("Set", "Multiset", "BloomFilter", "HyperLogLog", "approx_distinct", "Map", "unique", "paths",
                 "StringMap", "value_counts"):
        assert name in space, name
