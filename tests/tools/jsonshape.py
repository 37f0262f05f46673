"""The shape of a JSON document, and where two documents' shapes differ.

fio's JSON output and iobench's are compared by shape, never by figures: the same key
paths, with the same kind of value at each (an int where fio has an int, never a float),
and for some checks in the same order. The one walker of tests/tools/fio_diff.py,
opts_io_diff.py, zone_diff.py, h_engines_local.py, tests/realworld/run.py and
tests/integration/t_steadystate.sh.

    import jsonshape   (from tests/tools/: on sys.path, or PYTHONPATH=tests/tools)

    jsonshape.paths(doc)            {path: kind}, in document order
    jsonshape.diff(fio_doc, ours)   a list of differences, [] when the shapes are alike:
                                      'jobs[].read.iops: float in fio, int in iobench'
                                      'jobs[].read.foo: int in fio, missing in iobench'
                                      'jobs[].bar: string in iobench, not in fio'
                                      'order: fio has jobs[].a where iobench has jobs[].b'

A path is the keys from the top, each after a dot, with [] for any element of a list:
'.jobs[].read.iops' (shown without its first dot); '' is the document itself. A list's
elements share their paths: a path's kind is the one its first element there has (the
last one's with keep='last'). The walk records a dict whose path ends in '.percentile',
'.bins' or 'options' (the percentile tables, json+ bins and option maps) and does not
enter it.

A kind is kind(v)'s name: 'int', 'float', 'string', 'object', 'array' or 'bool', by the
value's exact type, so True is a 'bool', never an 'int' (Python's bool is an int). Any
other value (None, JSON's null) raises TypeError: the check fails, as it always has.
kind_no_bool raises on true and false too; a caller may pass its own kind function.
"""

KINDS = {int: 'int', float: 'float', str: 'string', dict: 'object', list: 'array', bool: 'bool'}
STOP = ('.percentile', '.bins', 'options')


def kind(v):
    """The kind of a JSON value by its exact type; TypeError for anything else (null)."""
    try:
        return KINDS[type(v)]
    except KeyError:
        raise TypeError('%r: not a kind of value these checks know' % (v,)) from None


def kind_no_bool(v):
    """As kind, but true and false raise TypeError too (fio 3.33's JSON has neither)."""
    if isinstance(v, bool):
        raise TypeError('%r: a bool where only numbers, strings, objects and arrays may be' % (v,))
    return kind(v)


def paths(doc, kind=kind, ignore_top=(), keep='first'):
    """{path: kind} of every value in doc, in document order.

    ignore_top: keys of the top-level object left out, with all below them.
    keep: 'first' or 'last', which element of a list gives a path its kind."""
    if keep not in ('first', 'last'):
        raise ValueError('keep: first or last, not %r' % (keep,))
    out = {}

    def walk(v, path):
        try:
            t = kind(v)
        except TypeError as e:
            raise TypeError('%s: %s' % (show(path), e)) from None
        if keep == 'first':
            out.setdefault(path, t)
        else:
            out[path] = t
        if isinstance(v, dict):
            if path.endswith(STOP):
                return
            for k, x in v.items():
                if path == '' and k in ignore_top:
                    continue
                walk(x, path + '.' + k)
        elif isinstance(v, list):
            for x in v:
                walk(x, path + '[]')

    walk(doc, '')
    return out


def show(path):
    return path[1:] if path else '(the document)'


def diff(fio_doc, ours, kind=kind, ignore_top=(), keep='first', extra=True, order=False,
         names=('fio', 'iobench')):
    """What differs between the two documents' shapes, one line each; [] when alike.

    Always: a path of fio's missing from ours, and a path whose kind differs.
    extra: also a path of ours that fio lacks.
    order: also the paths both have in a different order (one line, at the first).
    kind, ignore_top, keep: as for paths(); names: the two documents' names in the lines."""
    a = paths(fio_doc, kind, ignore_top, keep)
    b = paths(ours, kind, ignore_top, keep)
    f, o = names
    out = ['%s: %s in %s, missing in %s' % (show(p), t, f, o) for p, t in a.items() if p not in b]
    out += ['%s: %s in %s, %s in %s' % (show(p), t, f, b[p], o) for p, t in a.items() if p in b and b[p] != t]
    if extra:
        out += ['%s: %s in %s, not in %s' % (show(p), t, o, f) for p, t in b.items() if p not in a]
    if order:
        pa, pb = [p for p in a if p in b], [p for p in b if p in a]
        for x, y in zip(pa, pb):
            if x != y:
                out.append('order: %s has %s where %s has %s' % (f, show(x), o, show(y)))
                break
    return out
