"""The Ledgekit demo game, written on the public ``engine`` API the way any game built on Ledgekit would be.

``session`` holds the rules of one play (no arcade), ``app`` the window, ``runner`` the input files and
recordings, ``art``, ``sounds`` and ``mapmaker`` generate the shipped assets and levels.
"""
