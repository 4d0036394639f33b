"""The Ledgekit demo game, written on the public ``engine`` API the way any game built on Ledgekit would be.

``session`` holds the rules of one play (no arcade), ``app`` the window, ``runner`` the input files and
recordings, ``art``, ``sounds`` and ``mapmaker`` (with ``tutorial``, the three teaching levels) generate the
shipped assets and levels. Pieces made to be reused by other games: ``controls`` (action bindings, latched
presses, keyboard and gamepad), ``screen`` (pixel-perfect whole-factor scaling with letterboxing),
``settings`` (a JSON settings file in the user's config folder), ``menus`` and ``particles`` (bursts of
sprites driven by a step's events).
"""
