"""pawfile: stores adoption applications submitted to an animal shelter."""
