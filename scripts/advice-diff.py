#!/usr/bin/env python3
"""Compares the suggestions of two builds' `sleuth advise --json`.

Usage: scripts/advice-diff.py NEW_DIR OLD_DIR

Each directory holds one advice per state, `*.json` under the same names (for
example `for f in states/*; do sleuth advise --json $f > new/$(basename $f).json; done`).
Per state it checks that every suggestion both list has the same answers
and numbers (to 1e-12, relative), and compares the top suggestions by the
default objective (the chance of ending the game, then the information;
another as good, to the same tolerance, is a tie the older ranking broke in
favour of a suggestion the newer shortlist did not evaluate: where the case
file is certain every suggestion ends the game, and a sum of answers may say
1.0000000000000002).
A newer shortlist may evaluate suggestions the older one did not: the lists
may differ, a suggestion both evaluate may not. Exits 1 on a mismatch, a state
missing from OLD_DIR, or where the new top suggestion is worse.
"""
import json
import os
import sys

TOLERANCE = 1e-12


def key(suggestion):
    return tuple(sorted(suggestion["cards"]))


def differs(x, y):
    if isinstance(x, float) or isinstance(y, float):
        return abs(x - y) > TOLERANCE * max(1.0, abs(x), abs(y))
    return x != y


def score(suggestion):
    """The default objective: the chance of ending the game, then the information."""
    return (suggestion["end_probability"], suggestion["information"])


def field_mismatches(x, y, where, skip=()):
    """Every field of two objects that one lacks or that differs, but those in `skip`."""
    return [
        f"{where} {field}: {x.get(field)} vs {y.get(field)}"
        for field in sorted((set(x) | set(y)) - set(skip))
        if field not in x or field not in y or differs(x[field], y[field])
    ]


def mismatches(a, b, where):
    """Every field of two evaluations of one suggestion that differs."""
    # Where a suggestion stands in its list (`same_answers_as`, an index) and
    # which cards may stand in for its own (`alternatives`, from 2026-12-05)
    # are not numbers of its evaluation.
    out = field_mismatches(a, b, where, skip={"cards", "outcomes", "alternatives", "same_answers_as"})
    if len(a["outcomes"]) != len(b["outcomes"]):
        return out + [f"{where}: {len(a['outcomes'])} answers vs {len(b['outcomes'])}"]
    for i, (x, y) in enumerate(zip(a["outcomes"], b["outcomes"])):
        out += field_mismatches(x, y, f"{where} answer {i}")
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    new_dir, old_dir = sys.argv[1:]
    states = same_list = same_top = tied = better = worse = common = 0
    bad = []
    for name in sorted(n for n in os.listdir(new_dir) if n.endswith(".json")):
        with open(os.path.join(new_dir, name)) as f:
            new = json.load(f)
        if not os.path.exists(os.path.join(old_dir, name)):
            bad.append(f"{name}: not in {old_dir}")
            continue
        with open(os.path.join(old_dir, name)) as f:
            old = json.load(f)
        states += 1
        if new["models"] != old["models"] or differs(new["entropy"], old["entropy"]):
            bad.append(f"{name}: the position differs")
        ns, os_ = new["suggestions"], old["suggestions"]
        same_list += [key(s) for s in ns] == [key(s) for s in os_]
        by_key = {key(s): s for s in os_}
        for s in ns:
            if key(s) in by_key:
                common += 1
                bad += mismatches(s, by_key[key(s)], f"{name} {'/'.join(s['cards'])}")
        if not ns or not os_:
            if ns or os_:
                bad.append(f"{name}: {len(ns)} suggestions vs {len(os_)}")
        elif key(ns[0]) == key(os_[0]):
            same_top += 1
        elif not any(map(differs, score(ns[0]), score(os_[0]))):
            tied += 1
        elif score(ns[0]) > score(os_[0]):
            better += 1
        else:
            worse += 1
            bad.append(f"{name}: top {ns[0]['cards']} {score(ns[0])} below {os_[0]['cards']} {score(os_[0])}")
    for line in bad[:50]:
        print(line)
    print(
        f"{states} states: {same_list} with the same list, {same_top} the same top suggestion, "
        f"{tied} another as good, {better} a better one, {worse} a worse one; {common} suggestions in both, "
        f"{len(bad)} mismatches"
    )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
