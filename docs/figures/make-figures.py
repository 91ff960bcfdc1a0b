#!/usr/bin/env python3
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Draws the figures of docs/design.md as SVG, with nothing but Python 3:
#   segment-layout.svg   the shared segment of a communicator of 4
#                        processes on 2 NUMA nodes (s = 8, w = 2)
#   bcast-in-flight.svg  one Bcast from rank 0 to 3 others, k-ary tree of
#                        degree 2, caught while fragments 4..8 are in flight
#
# Run from anywhere: python3 docs/figures/make-figures.py (writes beside
# itself).  The SVG files are committed; rerun after changing this file.

import os

HERE = os.path.dirname(os.path.abspath(__file__))
FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"

NODE_COLOURS = ["#dbe9f6", "#fbe3cf"]     # NUMA node 0, node 1
SHARED = "#e8e8e8"
FULL = "#4a86c5"
EMPTY = "#ffffff"
READING = "#9cc58a"


class Svg:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.parts = []

    def rect(self, x, y, w, h, fill, stroke="#333", dash=False):
        extra = " stroke-dasharray='4 3'" if dash else ""
        self.parts.append(f"<rect x='{x}' y='{y}' width='{w}' height='{h}' "
                          f"fill='{fill}' stroke='{stroke}'{extra}/>")

    def text(self, x, y, s, size=12, anchor="start", weight="normal", colour="#111"):
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.parts.append(f"<text x='{x}' y='{y}' font-size='{size}' "
                          f"text-anchor='{anchor}' font-weight='{weight}' "
                          f"fill='{colour}' {FONT}>{s}</text>")

    def arrow(self, x1, y1, x2, y2, colour="#333", dash=False, width=1.5):
        extra = " stroke-dasharray='5 4'" if dash else ""
        self.parts.append(f"<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' "
                          f"stroke='{colour}' stroke-width='{width}'{extra} "
                          f"marker-end='url(#head)'/>")

    def save(self, name):
        head = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{self.width}' "
                f"height='{self.height}' viewBox='0 0 {self.width} {self.height}'>\n"
                "<defs><marker id='head' markerWidth='8' markerHeight='8' refX='7' "
                "refY='4' orient='auto'><path d='M0,0 L8,4 L0,8 z' fill='#333'/>"
                "</marker></defs>\n"
                f"<rect width='{self.width}' height='{self.height}' fill='white'/>\n")
        with open(os.path.join(HERE, name), "w") as out:
            out.write(head + "\n".join(self.parts) + "\n</svg>\n")


def segment_layout():
    p, s, w = 4, 8, 2
    numa = [0, 0, 1, 1]
    svg = Svg(760, 560)
    svg.text(380, 24, "The segment of one communicator (p = 4, s = 8 slots, w = 2 banks)",
             15, "middle", "bold")
    x, width, y = 40, 470, 44

    def block(label, detail, h, fill):
        nonlocal y
        svg.rect(x, y, width, h, fill)
        svg.text(x + 8, y + 17, label, 12, weight="bold")
        if detail:
            svg.text(x + 8, y + 33, detail, 11)
        y += h

    block("header", "magic, layout version, p, s, w, f, size, attach counter, retired", 42, SHARED)
    block("topology", "numa[p], leaders[p]  (one page with the header)", 40, SHARED)
    block("bank control: w cache lines", "op, total, mode of each bank; counts[p] per bank",
          46, SHARED)
    for rank in range(p):
        top = y
        svg.rect(x, y, width, 84, NODE_COLOURS[numa[rank]])
        svg.text(x + 8, y + 17, f"process {rank}", 12, weight="bold")
        svg.text(x + 8, y + 33, "done[w]: one cache line, its own", 11)
        svg.text(x + 8, y + 49, "ctrl[s]: a cache line per slot (seq, size, inline bytes)",
                 11)
        # the slots, split into banks
        sx, sy, sw = x + 8, y + 58, 52
        for slot in range(s):
            bank = slot // (s // w)
            svg.rect(sx + slot * (sw + 4), sy, sw, 20, "#ffffff",
                     stroke="#1f4e79" if bank == 0 else "#a34d00")
            svg.text(sx + slot * (sw + 4) + sw / 2, sy + 14, f"q[{slot}]", 10, "middle")
        y = top + 84
    svg.text(x + 8, y + 18, "...", 12)

    # legend and annotations on the right
    lx = 530
    svg.text(lx, 70, "one page at least per block:", 11)
    svg.text(lx, 86, "the unit of NUMA placement", 11)
    svg.rect(lx, 110, 18, 14, SHARED)
    svg.text(lx + 26, 122, "rank 0's node (shared part)", 11)
    for node in range(2):
        svg.rect(lx, 134 + 24 * node, 18, 14, NODE_COLOURS[node])
        svg.text(lx + 26, 146 + 24 * node, f"pages placed on NUMA node {node}", 11)
    svg.rect(lx, 194, 18, 14, "#ffffff", stroke="#1f4e79")
    svg.text(lx + 26, 206, "slots of bank 0", 11)
    svg.rect(lx, 218, 18, 14, "#ffffff", stroke="#a34d00")
    svg.text(lx + 26, 230, "slots of bank 1", 11)
    svg.text(lx, 270, "A process writes only into its own", 11)
    svg.text(lx, 286, "queue (Bcast root, Gather(v) senders,", 11)
    svg.text(lx, 302, "Allgather(v) everyone) or, as", 11)
    svg.text(lx, 318, "Scatter(v) root, into the receiver's.", 11)
    svg.text(lx, 350, "Bank b serves the operations with", 11)
    svg.text(lx, 366, "op % w = b: a writer fills bank 1", 11)
    svg.text(lx, 382, "while readers drain bank 0.", 11)
    svg.text(lx, 414, "Every flag has its own cache line:", 11)
    svg.text(lx, 430, "no two writers share a line.", 11)
    svg.save("segment-layout.svg")


def bcast_in_flight():
    svg = Svg(760, 450)
    svg.text(380, 24, "One Bcast in flight: root 0, k-ary tree (k = 2), s = 8 slots, w = 2 banks",
             15, "middle", "bold")
    # the root's queue: bank use n goes to bank n % w, so fragments 0..3
    # (use 1) went to bank 1, 4..7 (use 2) to bank 0, 8..11 (use 3) to
    # bank 1 again
    qx, qy, sw = 150, 60, 62
    svg.text(40, qy + 16, "root's queue", 12, weight="bold")
    states = {0: (READING, "frag 4"), 1: (READING, "frag 5"), 2: (READING, "frag 6"),
              3: (FULL, "frag 7"), 4: (FULL, "frag 8"), 5: (EMPTY, ""), 6: (EMPTY, ""),
              7: (EMPTY, "")}

    def slot_x(slot):
        return qx + slot * (sw + 4)

    for slot, (fill, label) in states.items():
        svg.rect(slot_x(slot), qy, sw, 24, fill, stroke="#1f4e79" if slot < 4 else "#a34d00")
        svg.text(slot_x(slot) + sw / 2, qy + 16, label, 10, "middle",
                 colour="#fff" if fill == FULL else "#111")
    svg.text(slot_x(2), qy + 42, "bank 0, use 2: fragments 4..7", 11, "middle")
    svg.text(slot_x(6), qy + 42, "bank 1, use 3: fragments 8..11", 11, "middle")

    boxes = {0: (95, 175, "writes frag 8"), 1: (300, 275, "copies frag 5"),
             2: (560, 275, "copies frag 6"), 3: (150, 380, "copies frag 4")}
    for rank, (x, y, doing) in boxes.items():
        svg.rect(x - 55, y - 20, 110, 40, "#f4f4f4")
        svg.text(x, y - 3, f"rank {rank}" + (" (root)" if rank == 0 else ""), 12,
                 "middle", "bold")
        svg.text(x, y + 13, doing, 10, "middle")
    # notifications: ctrl flags written into the children's lines
    svg.arrow(150, 190, 245, 258)
    svg.arrow(150, 180, 505, 262)
    svg.arrow(270, 295, 185, 358)
    svg.text(160, 240, "ctrl[0..3]", 10)
    svg.text(420, 222, "ctrl[0..3]", 10)
    svg.text(238, 340, "ctrl[0], ctrl[1]: forwarded", 10)
    # copies out of the root's slots
    svg.arrow(slot_x(1) + 31, qy + 26, 300, 253, colour=READING, dash=True, width=2)
    svg.arrow(slot_x(2) + 40, qy + 26, 560, 253, colour=READING, dash=True, width=2)
    svg.arrow(slot_x(0) + 20, qy + 26, 120, 358, colour=READING, dash=True, width=2)

    lx = 610
    svg.rect(lx, 330, 18, 14, FULL)
    svg.text(lx + 26, 342, "written, not read yet", 11)
    svg.rect(lx, 352, 18, 14, READING)
    svg.text(lx + 26, 364, "being read", 11)
    svg.rect(lx, 374, 18, 14, EMPTY)
    svg.text(lx + 26, 386, "free", 11)
    svg.text(lx, 410, "solid: notification", 11)
    svg.text(lx, 426, "dashed: copy out", 11)
    svg.text(40, 425, "Each rank forwards a notification to its children before it copies.",
             11)
    svg.text(40, 441, "Bank 1 (fragments 0..3, use 1) was refilled once ranks 1, 2, 3 were done "
             "with it.", 11)
    svg.save("bcast-in-flight.svg")


segment_layout()
bcast_in_flight()
