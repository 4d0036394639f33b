"""The Ledgekit demo game, written on the public ``engine`` API the way any game built on Ledgekit would be."""
